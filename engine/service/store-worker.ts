// One worker thread with its own read-only connection to the store, answering requests off the
// engine's thread: the shape both the read worker (read-worker.ts: the server's heavy reads) and
// the comparison worker (compare-worker.ts: GET /api/compare) share, typed by their request and
// answer. Reads that take seconds on the thread that also runs the engine and answers /api/health
// would stall every run and request meanwhile; on a worker the engine's thread only receives the
// answer. The worker starts on the first request, or ahead of it with `start()` (its thread boots in
// a few hundred ms of CPU, which a reader that is about to ask should not pay on its first read,
// nor the engine while it is busy), and again after it dies; `close()` stops it.
// The store is its text (a file's path, or a PostgreSQL URL: the worker opens a connection of its
// own either way; on PostgreSQL that connection runs on a thread of its own too, pg-sync.ts).
// Where no worker can run at all (its code cannot be loaded, before it ever answered: a broken
// install; or the store is in memory, with no file another connection could open), requests are
// answered on the calling thread, slower for the engine but still answered. A worker that fails
// otherwise (out of memory) fails the requests it held, never the engine.
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { StoreWorkerData, StoreWorkerReply, StoreWorkerRequest } from './store-worker-protocol.ts';
import { ServiceError } from './service-error.ts';

// Entries sit beside this module: under tsx, the bootstrap (store-worker-boot.mjs) registers tsx and
// loads the TypeScript entry; in the bundled CLI (dist/cli/, flat, where import.meta.url is the bundle's own URL) each
// entry is built as <entry>.js (build/bundle-cli.mjs).
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const BOOT = new URL('./store-worker-boot.mjs', import.meta.url);

/** The errors of a worker whose code cannot be loaded here. */
const CANNOT_LOAD = new Set(['MODULE_NOT_FOUND', 'ERR_MODULE_NOT_FOUND', 'ERR_UNKNOWN_FILE_EXTENSION', 'ENOENT', 'ERR_WORKER_PATH', 'ERR_WORKER_INIT_FAILED', 'ERR_WORKER_UNSUPPORTED_OPERATION']);

/** The `code` of what a worker threw (Node's errors carry one), or ''. */
function codeOf(e: unknown): string {
  return typeof e === 'object' && e !== null && 'code' in e ? String(e.code) : '';
}

/** What a store worker is and how its errors speak of it. */
export interface StoreWorkerOptions<Q, A> {
  /** The store the engine owns, which the worker opens read-only: a file's path, or a PostgreSQL URL. */
  store: string;
  /** The workspace whose .weft/ keeps a PostgreSQL store's artifacts. */
  workspace?: string;
  /** The worker's entry module beside this one, without extension (e.g. `read-worker-entry`). */
  entry: string;
  /** Answers a request on the calling thread: the fallback where no worker can run. */
  inline: (request: Q) => A;
  /** The worker in errors, e.g. `the read worker`. */
  name: string;
  /** A request answered and one not, in errors: `the read was answered`, `the read was not answered`. */
  answered: string;
  unanswered: string;
  /** The worker's entry file instead of `entry` (tests: one that cannot load, or that dies); a `.ts` one starts through the bootstrap. */
  script?: URL;
}

interface Pending<Q, A> {
  request: Q;
  resolve(answer: A): void;
  reject(e: Error): void;
}

export class StoreWorker<Q, A> {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending<Q, A>>();
  private nextId = 1;
  private closed = false;
  /** Some worker answered once: a worker that dies later is started again, never given up on. */
  private answeredOnce = false;
  /** Why no worker can run here, once one failed before it ever answered. */
  private unusable: string | undefined;
  /** Resolves once the worker that start() began runs. */
  private online: Promise<void> | undefined;

  constructor(private readonly o: StoreWorkerOptions<Q, A>) {
    // An in-memory store (tests) has no file another connection could open.
    if (o.store === ':memory:') this.unusable = 'an in-memory store cannot be read by another connection';
  }

  /** The answer to `request`, computed on the worker; rejects with the ServiceError the worker raised. */
  ask(request: Q): Promise<A> {
    if (this.closed) return Promise.reject(new ServiceError('internal', `the server is stopping; ${this.o.unanswered}`));
    if (this.unusable !== undefined) return this.askInline(request);
    const worker = this.running();
    const id = this.nextId++;
    const message: StoreWorkerRequest<Q> = { id, request };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { request, resolve, reject });
      // A request waiting for its answer keeps the process alive; an idle worker does not.
      worker.ref();
      worker.postMessage(message);
    });
  }

  /**
   * Starts the worker now, ahead of the first request, and resolves once its thread runs (or
   * failed to start: the next request then meets that failure as usual). Nothing happens where no
   * worker can run or one already runs; it never rejects.
   */
  start(): Promise<void> {
    if (this.closed || this.unusable !== undefined) return Promise.resolve();
    if (this.worker !== undefined) return this.online ?? Promise.resolve();
    const worker = this.running();
    this.online = new Promise<void>((resolve) => {
      worker.once('online', () => resolve());
      worker.once('error', () => resolve());
      worker.once('exit', () => resolve());
    });
    return this.online;
  }

  /** The worker's thread id while one runs (tests: the same thread answers). */
  get threadId(): number | undefined {
    return this.worker?.threadId;
  }

  /** Stops the worker; requests still waiting are refused. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(`the server stopped before ${this.o.answered}`);
    if (worker !== undefined) await worker.terminate();
  }

  private running(): Worker {
    if (this.worker !== undefined) return this.worker;
    const entry = this.o.script ?? new URL(`./${this.o.entry}${FROM_SOURCE ? '.ts' : '.js'}`, import.meta.url);
    // A TypeScript entry (only ever under tsx) starts through the bootstrap that registers tsx.
    const typed = entry.pathname.endsWith('.ts');
    const workerData: StoreWorkerData = { store: this.o.store, ...(this.o.workspace === undefined ? {} : { workspace: this.o.workspace }), ...(typed ? { entry: entry.href } : {}) };
    const worker = new Worker(fileURLToPath(typed ? BOOT : entry), { workerData });
    worker.on('message', (reply: StoreWorkerReply<A>) => this.settle(reply));
    worker.on('error', (e: unknown) => this.lost(worker, `${this.o.name} failed: ${e instanceof Error ? e.message : String(e)}`, CANNOT_LOAD.has(codeOf(e))));
    worker.on('exit', (code) => this.lost(worker, `${this.o.name} stopped (exit code ${code})`, false));
    // An idle worker does not keep the process alive (a request waiting does: ask). After the
    // listeners: adding a 'message' listener refs a Worker again (test/service/store-worker-idle.test.ts).
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private askInline(request: Q): Promise<A> {
    try {
      return Promise.resolve(this.o.inline(request));
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
  }

  private settle(reply: StoreWorkerReply<A>): void {
    this.answeredOnce = true;
    const waiting = this.pending.get(reply.id);
    if (waiting === undefined) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker?.unref();
    if ('answer' in reply) waiting.resolve(reply.answer);
    else waiting.reject(new ServiceError(reply.error.code, reply.error.message, reply.error.path));
  }

  /**
   * The worker is gone: what it was asked fails (try again), and the next request starts another.
   * One whose code could not be loaded, before any worker answered, cannot run here: what it was
   * asked, and all that follows, is answered on this thread.
   */
  private lost(worker: Worker, why: string, cannotLoad: boolean): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.online = undefined;
    if (cannotLoad && !this.answeredOnce) {
      this.unusable = why;
      const waiting = [...this.pending.values()];
      this.pending.clear();
      for (const w of waiting) this.askInline(w.request).then(w.resolve, w.reject);
      return;
    }
    this.failAll(`${why}; ${this.o.unanswered}, try again`);
  }

  private failAll(message: string): void {
    for (const waiting of this.pending.values()) waiting.reject(new ServiceError('internal', message));
    this.pending.clear();
  }
}
