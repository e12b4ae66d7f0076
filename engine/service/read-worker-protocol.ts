// What the engine's thread and the read worker (read-worker-entry.ts) say to each other: one
// request per read, answered by its id with the answer already encoded as JSON (a string crosses
// threads as one copy of its bytes, where an object of megabytes would be cloned field by field
// and then encoded again on the engine's thread), or with the service's error.
import type { RunListFilter } from '../store/run-list.ts';
import type { ServiceErrorCode } from './service-error.ts';

/** What the worker is started with. */
export interface ReadWorkerData {
  /** The store to open read-only. */
  storePath: string;
  /** Under tsx only: the TypeScript entry the bootstrap imports once tsx is registered. */
  entry?: string;
}

/** One read, with the instant the service's clock gave for it where the answer depends on time. */
export type ReadQuery =
  | { op: 'runs'; filter: RunListFilter; now: number }
  | { op: 'run-detail'; run: string; elideOver?: number }
  | { op: 'events'; run: string; after: number; limit: number; elide?: number }
  | { op: 'timeline'; run: string; asOf: number }
  | { op: 'stats'; workflowId: string; version?: number; asOf: number };

export interface ReadRequest {
  id: number;
  query: ReadQuery;
}

export type ReadReply =
  | { id: number; json: string }
  | { id: number; error: { code: ServiceErrorCode; message: string; path?: string } };
