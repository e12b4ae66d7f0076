// Comparisons of two runs off the engine's thread (`GET /api/compare`). Folding two logs that hold
// megabytes of inputs takes seconds, and on the engine's thread it would stall every run and every
// request meanwhile (test/bench/compare-bench.ts measures it), so one worker thread with its own
// read-only connection to the store computes them, one at a time, and the engine's thread only
// receives the answer, already cut to its stubs. The worker starts on the first request and is
// started again after it dies; `close()` stops it. Where a worker cannot run at all (its code
// cannot be loaded, before it ever answered: a broken install), comparisons are computed on the
// calling thread instead, slower for the engine but still answered. A worker that fails otherwise
// (out of memory on a huge comparison) fails that comparison only, never the engine.
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
  a: string;
  b: string;
  cut: ComparisonCut;
  resolve(c: RunComparison): void;
  reject(e: Error): void;
}

/** The errors of a worker whose code cannot be loaded here. */
const CANNOT_LOAD = new Set(['MODULE_NOT_FOUND', 'ERR_MODULE_NOT_FOUND', 'ERR_UNKNOWN_FILE_EXTENSION', 'ENOENT', 'ERR_WORKER_PATH', 'ERR_WORKER_INIT_FAILED', 'ERR_WORKER_UNSUPPORTED_OPERATION']);

/** Computes a comparison on the calling thread: the fallback where no worker can run. */
export type CompareInline = (a: string, b: string, cut: ComparisonCut) => RunComparison;

export class CompareWorker {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;
  /** Some worker answered once: a worker that dies later is started again, never given up on. */
  private answered = false;
  /** Why no worker can run here, once one failed before it ever answered. */
  private unusable: string | undefined;

  /**
   * `storePath`: the store the engine owns, which the worker opens read-only; `inline` computes
   * where no worker can run; `script` is the worker's file (tests give one that cannot load).
   */
  constructor(
    private readonly storePath: string,
    private readonly inline: CompareInline,
    private readonly script: URL = BOOT,
  ) {}

  /**
   * Runs `a` and `b` (ids or unique prefixes) side by side, cut by `cut`, computed on the worker.
   * Rejects with the ServiceError the reader raised (an unknown run names its side).
   */
  compare(a: string, b: string, cut: ComparisonCut): Promise<RunComparison> {
    if (this.closed) return Promise.reject(new ServiceError('internal', 'the server is stopping; the runs were not compared'));
    if (this.unusable !== undefined) return this.computeInline(a, b, cut);
    const worker = this.running();
    const id = this.nextId++;
    const request: CompareRequest = { id, a, b, cut };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { a, b, cut, resolve, reject });
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
    const worker = new Worker(fileURLToPath(this.script), { workerData });
    // An idle worker does not keep the process alive.
    worker.unref();
    worker.on('message', (reply: CompareReply) => this.settle(reply));
    worker.on('error', (e: Error & { code?: unknown }) => this.lost(worker, `the comparison worker failed: ${e.message}`, CANNOT_LOAD.has(String(e.code))));
    worker.on('exit', (code) => this.lost(worker, `the comparison worker stopped (exit code ${code})`, false));
    this.worker = worker;
    return worker;
  }

  private computeInline(a: string, b: string, cut: ComparisonCut): Promise<RunComparison> {
    try {
      return Promise.resolve(this.inline(a, b, cut));
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
  }

  private settle(reply: CompareReply): void {
    this.answered = true;
    const waiting = this.pending.get(reply.id);
    if (waiting === undefined) return;
    this.pending.delete(reply.id);
    if ('comparison' in reply) waiting.resolve(reply.comparison);
    else waiting.reject(new ServiceError(reply.error.code, reply.error.message, reply.error.path));
  }

  /**
   * The worker is gone: what it was asked fails (try again), and the next request starts another.
   * One whose code could not be loaded, before any worker answered, cannot run here: what it was
   * asked, and all that follows, is computed on this thread.
   */
  private lost(worker: Worker, why: string, cannotLoad: boolean): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    if (cannotLoad && !this.answered) {
      this.unusable = why;
      const waiting = [...this.pending.values()];
      this.pending.clear();
      for (const w of waiting) this.computeInline(w.a, w.b, w.cut).then(w.resolve, w.reject);
      return;
    }
    this.failAll(`${why}; the runs were not compared, try again`);
  }

  private failAll(message: string): void {
    for (const waiting of this.pending.values()) waiting.reject(new ServiceError('internal', message));
    this.pending.clear();
  }
}
