// What the engine's thread and a store worker (store-worker.ts, store-worker-thread.ts) say to each
// other, whatever the worker computes: one request per question, answered by its id with the answer
// or with the service's error. Each worker's own protocol file names its request and answer types.
import { serviceErrorOf, type ServiceErrorCode } from './service-error.ts';

/** What a store worker is started with. */
export interface StoreWorkerData {
  /** The store to open read-only: a file's path, or a PostgreSQL URL (store-locator.ts). */
  store: string;
  /** The workspace whose .weft/ keeps a PostgreSQL store's artifacts (store-home.ts); the process's folder unless given. */
  workspace?: string;
  /** Under tsx only: the TypeScript entry the bootstrap imports once tsx is registered. */
  entry?: string;
}

export interface StoreWorkerRequest<Q> {
  id: number;
  request: Q;
}

/** The service's error, as it crosses threads (a ServiceError is rebuilt from it on the other side). */
export interface StoreWorkerError {
  code: ServiceErrorCode;
  message: string;
  path?: string;
}

export type StoreWorkerReply<A> = { id: number; answer: A } | { id: number; error: StoreWorkerError };

/** `e` as it crosses threads: the service's error as it is, anything else an internal error told by `internal`. */
export function storeWorkerError(e: unknown, internal: string): StoreWorkerError {
  const known = serviceErrorOf(e);
  if (known !== undefined) return { code: known.code, message: known.message, ...(known.path === undefined ? {} : { path: known.path }) };
  return { code: 'internal', message: `${internal}: ${e instanceof Error ? e.message : String(e)}` };
}
