// The server's heavy reads off the engine's thread. GET /api/stats over 100,000 runs, the detail
// of a run of 100,000 events or a runs page each took seconds on the thread that also runs the
// engine and answers /api/health, which stalled every run and request meanwhile; a store worker
// (store-worker.ts: its own thread and read-only connection, started on demand, with its fallback
// to this thread where no worker can run) answers them instead, and the engine's thread only
// receives the JSON text to send. What it reads is read-worker-entry.ts.
import type { ReadQuery } from './read-worker-protocol.ts';
import { StoreWorker } from './store-worker.ts';

/** Answers a read on the calling thread, as JSON text: the fallback where no worker can run. */
export type ReadInline = (query: ReadQuery) => string;

export class ReadWorker {
  private readonly worker: StoreWorker<ReadQuery, string>;

  /**
   * `store`: the store the engine owns (a path or a PostgreSQL URL), which the worker opens
   * read-only; `inline` answers where no worker can run; `script` is the worker's file (tests give
   * one that cannot load); `workspace` keeps a PostgreSQL store's artifacts.
   */
  constructor(store: string, inline: ReadInline, script?: URL, workspace?: string) {
    this.worker = new StoreWorker({
      store,
      ...(workspace === undefined ? {} : { workspace }),
      entry: 'read-worker-entry',
      inline,
      name: 'the read worker',
      answered: 'the read was answered',
      unanswered: 'the read was not answered',
      ...(script === undefined ? {} : { script }),
    });
  }

  /** The answer to `query` as JSON text, read on the worker; rejects with the reader's ServiceError. */
  read(query: ReadQuery): Promise<string> {
    return this.worker.ask(query);
  }

  /** Starts the worker ahead of the first read (StoreWorker.start); resolves once it runs. */
  start(): Promise<void> {
    return this.worker.start();
  }

  /** Stops the worker; reads still waiting are refused. */
  close(): Promise<void> {
    return this.worker.close();
  }
}
