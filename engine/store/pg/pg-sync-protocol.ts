// What the engine's thread and the PostgreSQL thread of a PgSync (pg-sync.ts, pg-sync-entry.ts)
// say to each other. Requests and their replies go over a MessageChannel whose engine side has no
// listener: the engine's thread posts a request, blocks in Atomics.wait on the shared state word
// until the PostgreSQL thread has posted the reply and set the word, then takes the reply with
// receiveMessageOnPort. Notifications (LISTEN) come the ordinary way, as messages of the Worker.
import type { MessagePort } from 'node:worker_threads';

/** One statement of a batch: `$1..$n` placeholders; rows as arrays or as objects (the default). */
export interface PgStatement {
  text: string;
  values: readonly unknown[];
  rowMode?: 'array' | 'object';
}

/** What one statement gave: its rows (arrays or objects, as asked), the rows it touched, and the columns' names. */
export interface PgAnswer {
  rows: unknown[];
  rowCount: number;
  fields: string[];
}

/** The state word (Int32Array index 0 of the shared buffer). */
export const WAITING = 0;
export const ANSWERED = 1;
/** The PostgreSQL thread is ending (its 'exit' ran): no reply will come. */
export const EXITED = 2;

/** workerData of the PostgreSQL thread. `entry` is for store-worker-boot.mjs (under tsx). */
export interface PgSyncData {
  entry?: string;
  url: string;
  schema?: string;
  connectTimeoutMs: number;
  state: SharedArrayBuffer;
  port: MessagePort;
}

export type PgSyncRequest =
  | { kind: 'connect' }
  | { kind: 'batch'; statements: readonly PgStatement[] }
  | { kind: 'listen'; channel: string }
  | { kind: 'unlisten'; channel: string }
  | { kind: 'close' };

/**
 * Why a request failed. `sql`: the server refused statement `index` (its SQLSTATE in `code`), the
 * connection stays. `lost`: the connection failed or could not be made; the next request makes a
 * new one. `other`: anything else the thread met (a value it could not send, a parse error).
 */
export interface PgSyncFailure {
  kind: 'sql' | 'lost' | 'other';
  message: string;
  /** The SQLSTATE (`23505`), or a Node error code (`ECONNREFUSED`) for a lost connection. */
  code?: string;
  detail?: string;
  constraint?: string;
  /** The statement of the batch that failed; -1 when the connection could not be made; 0 for listen and close. */
  index: number;
}

export type PgSyncReply =
  | { ok: true; answers: PgAnswer[]; session: number; bytea: (number[] | undefined)[] }
  | { ok: false; failure: PgSyncFailure; session: number };

/** Messages of the Worker (asynchronous, on the engine thread's event loop). */
export type PgSyncEvent =
  | { kind: 'notify'; channel: string; payload: string }
  /** The LISTEN connection was lost and made again: notifications in between were missed. */
  | { kind: 'relisten'; channels: string[] };
