// What the engine's thread asks the read worker (read-worker-entry.ts) and what it answers, over
// the store worker's protocol (store-worker-protocol.ts): one read, answered with the answer
// already encoded as JSON (a string crosses threads as one copy of its bytes, where an object of
// megabytes would be cloned field by field and then encoded again on the engine's thread), or with
// the service's error.
import type { RunListFilter } from '../store/run-list.ts';
import type { StatsAsk } from './read-model.ts';
import type { RunValueQuery } from '../../shared/api/run-value.ts';

/** One read, with the instant the service's clock gave for it where the answer depends on time. */
export type ReadQuery =
  | { op: 'runs'; filter: RunListFilter; now: number }
  | { op: 'run-detail'; run: string; elideOver?: number; latestAttempts?: number }
  | { op: 'run-value'; run: string; query: RunValueQuery }
  | { op: 'step-attempts'; run: string; stepId: string; before?: number | undefined; limit?: number | undefined; elideOver: number }
  | { op: 'events'; run: string; after: number; limit: number; elide?: number }
  | { op: 'timeline'; run: string; asOf: number }
  | ({ op: 'stats'; workflowId: string; asOf: number } & StatsAsk);
