// Comparisons of two runs off the engine's thread (`GET /api/compare`). Folding two logs that hold
// megabytes of inputs takes seconds, and on the engine's thread it would stall every run and every
// request meanwhile (test/bench/compare-bench.ts measures it), so one worker thread with its own
// read-only connection to the store computes them, one at a time, and the engine's thread only
// receives the answer, already cut to its stubs. The worker starts on the first request and is
// started again after it dies; `close()` stops it.
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RunComparison } from '../../shared/api/run-comparison.ts';
import type { ComparisonCut } from '../../shared/run/elide-comparison.ts';
import type { CompareReply, CompareRequest, CompareWorkerData } from './compare-worker-protocol.ts';
import { ServiceError } from './service-error.ts';

// Beside this module: under tsx, a bootstrap that registers tsx and loads the TypeScript entry;
// in the bundled CLI (dist/cli/, flat), the entry built as compare-worker-entry.js.
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const ENTRY = new URL(FROM_SOURCE ? './compare-worker-entry.ts' : './compare-worker-entry.js', import.meta.url);
const BOOT = FROM_SOURCE ? new URL('./compare-worker-boot.mjs', import.meta.url) : ENTRY;

interface Pending {
  resolve(c: RunComparison): void;
  reject(e: Error): void;
}

export class CompareWorker {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  /** `storePath`: the store the engine owns, which the worker opens read-only. */
  constructor(private readonly storePath: string) {}

  /**
   * Runs `a` and `b` (ids or unique prefixes) side by side, cut by `cut`, computed on the worker.
   * Rejects with the ServiceError the reader raised (an unknown run names its side).
   */
  compare(a: string, b: string, cut: ComparisonCut): Promise<RunComparison> {
    if (this.closed) return Promise.reject(new ServiceError('internal', 'the server is stopping; the runs were not compared'));
    const worker = this.running();
    const id = this.nextId++;
    const request: CompareRequest = { id, a, b, cut };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage(request);
    });
  }

  /** Stops the worker; comparisons still waiting are refused. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.failAll('the server stopped before the runs were compared');
    if (worker !== undefined) await worker.terminate();
  }

  private running(): Worker {
    if (this.worker !== undefined) return this.worker;
    const workerData: CompareWorkerData = { storePath: this.storePath, ...(FROM_SOURCE ? { entry: ENTRY.href } : {}) };
    const worker = new Worker(fileURLToPath(BOOT), { workerData });
    // An idle worker does not keep the process alive.
    worker.unref();
    worker.on('message', (reply: CompareReply) => this.settle(reply));
    worker.on('error', (e) => this.lost(worker, `the comparison worker failed: ${e.message}`));
    worker.on('exit', (code) => this.lost(worker, `the comparison worker stopped (exit code ${code})`));
    this.worker = worker;
    return worker;
  }

  private settle(reply: CompareReply): void {
    const waiting = this.pending.get(reply.id);
    if (waiting === undefined) return;
    this.pending.delete(reply.id);
    if ('comparison' in reply) waiting.resolve(reply.comparison);
    else waiting.reject(new ServiceError(reply.error.code, reply.error.message, reply.error.path));
  }

  /** The worker is gone: what it was asked fails (try again), and the next request starts another. */
  private lost(worker: Worker, why: string): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.failAll(`${why}; the runs were not compared, try again`);
  }

  private failAll(message: string): void {
    for (const waiting of this.pending.values()) waiting.reject(new ServiceError('internal', message));
    this.pending.clear();
  }
}
