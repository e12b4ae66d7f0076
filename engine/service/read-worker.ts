// The server's heavy reads off the engine's thread. GET /api/stats over 100,000 runs, the detail
// of a run of 100,000 events or a runs page each took seconds on the thread that also runs the
// engine and answers /api/health, which stalled every run and request meanwhile; one worker
// thread with its own read-only connection to the store (read-worker-entry.ts) answers them
// instead, and the engine's thread only receives the JSON text to send. The worker starts on the
// first read and again after it dies; `close()` stops it. Where no worker can run at all (its code
// cannot be loaded, before it ever answered: a broken install), reads are answered on the calling
// thread, slower for the engine but still answered. A worker that fails otherwise (out of memory)
// fails the reads it held, never the engine. (compare-worker.ts is the same shape, for comparisons.)
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ReadQuery, ReadReply, ReadRequest, ReadWorkerData } from './read-worker-protocol.ts';
import { ServiceError } from './service-error.ts';

// Beside this module: under tsx, the bootstrap that registers tsx and loads the TypeScript entry
// (shared with the comparison worker); in the bundled CLI (dist/cli/, flat), the entry built as
// read-worker-entry.js.
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const ENTRY = new URL(FROM_SOURCE ? './read-worker-entry.ts' : './read-worker-entry.js', import.meta.url);
const BOOT = FROM_SOURCE ? new URL('./compare-worker-boot.mjs', import.meta.url) : ENTRY;

/** The errors of a worker whose code cannot be loaded here. */
const CANNOT_LOAD = new Set(['MODULE_NOT_FOUND', 'ERR_MODULE_NOT_FOUND', 'ERR_UNKNOWN_FILE_EXTENSION', 'ENOENT', 'ERR_WORKER_PATH', 'ERR_WORKER_INIT_FAILED', 'ERR_WORKER_UNSUPPORTED_OPERATION']);

/** Answers a read on the calling thread, as JSON text: the fallback where no worker can run. */
export type ReadInline = (query: ReadQuery) => string;

interface Pending {
  query: ReadQuery;
  resolve(json: string): void;
  reject(e: Error): void;
}

export class ReadWorker {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;
  /** Some worker answered once: a worker that dies later is started again, never given up on. */
  private answered = false;
  /** Why no worker can run here, once one failed before it ever answered. */
  private unusable: string | undefined;

  /**
   * `storePath`: the store the engine owns, which the worker opens read-only; `inline` answers
   * where no worker can run; `script` is the worker's file (tests give one that cannot load).
   */
  constructor(
    private readonly storePath: string,
    private readonly inline: ReadInline,
    private readonly script: URL = BOOT,
  ) {
    // An in-memory store (tests) has no file another connection could open.
    if (storePath === ':memory:') this.unusable = 'an in-memory store cannot be read by another connection';
  }

  /** The answer to `query` as JSON text, read on the worker; rejects with the reader's ServiceError. */
  read(query: ReadQuery): Promise<string> {
    if (this.closed) return Promise.reject(new ServiceError('internal', 'the server is stopping; the read was not answered'));
    if (this.unusable !== undefined) return this.readInline(query);
    const worker = this.running();
    const id = this.nextId++;
    const request: ReadRequest = { id, query };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { query, resolve, reject });
      worker.postMessage(request);
    });
  }

  /** Stops the worker; reads still waiting are refused. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.failAll('the server stopped before the read was answered');
    if (worker !== undefined) await worker.terminate();
  }

  private running(): Worker {
    if (this.worker !== undefined) return this.worker;
    const workerData: ReadWorkerData = { storePath: this.storePath, ...(FROM_SOURCE ? { entry: ENTRY.href } : {}) };
    const worker = new Worker(fileURLToPath(this.script), { workerData });
    // An idle worker does not keep the process alive.
    worker.unref();
    worker.on('message', (reply: ReadReply) => this.settle(reply));
    worker.on('error', (e: Error & { code?: unknown }) => this.lost(worker, `the read worker failed: ${e.message}`, CANNOT_LOAD.has(String(e.code))));
    worker.on('exit', (code) => this.lost(worker, `the read worker stopped (exit code ${code})`, false));
    this.worker = worker;
    return worker;
  }

  private readInline(query: ReadQuery): Promise<string> {
    try {
      return Promise.resolve(this.inline(query));
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
  }

  private settle(reply: ReadReply): void {
    this.answered = true;
    const waiting = this.pending.get(reply.id);
    if (waiting === undefined) return;
    this.pending.delete(reply.id);
    if ('json' in reply) waiting.resolve(reply.json);
    else waiting.reject(new ServiceError(reply.error.code, reply.error.message, reply.error.path));
  }

  /**
   * The worker is gone: what it was asked fails (try again), and the next read starts another.
   * One whose code could not be loaded, before any worker answered, cannot run here: what it was
   * asked, and all that follows, is answered on this thread.
   */
  private lost(worker: Worker, why: string, cannotLoad: boolean): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    if (cannotLoad && !this.answered) {
      this.unusable = why;
      const waiting = [...this.pending.values()];
      this.pending.clear();
      for (const w of waiting) this.readInline(w.query).then(w.resolve, w.reject);
      return;
    }
    this.failAll(`${why}; the read was not answered, try again`);
  }

  private failAll(message: string): void {
    for (const waiting of this.pending.values()) waiting.reject(new ServiceError('internal', message));
    this.pending.clear();
  }
}
