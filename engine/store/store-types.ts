// The shapes the store's files share and the Store hands out: an event as the engine appends it,
// the run and step projections, an event sent from outside, the pages of the log a reader asks
// for and the store's commit counters. Their own file, so the store's job files (event-log.ts,
// projections.ts, external-events.ts, definitions.ts) and run-list.ts name them without
// importing store.ts, the facade that imports them all.
import type { RunState } from '../../shared/definition/names.ts';
import type { EventData, EventType } from '../../shared/events/run-event.ts';

/** A page of one run's log: the events with seq > `after` (default 0), at most `limit` of them. */
export interface RunEventPage {
  after?: number;
  limit?: number;
}

/** A page of the whole store's log: events with cursor > the given one, of `runs` (default all). */
export interface CursorPage {
  runs?: readonly string[] | 'all';
  /** At most this many events (default 1,000). */
  limit?: number;
  /**
   * Stop once the events read hold this many characters of stored data (the event that passes it
   * included, so a page has at least one event): a page of events that each hold megabytes
   * stays small.
   */
  maxChars?: number;
}

export interface NewEvent<T extends EventType = EventType> {
  runId: string;
  type: T;
  at: number;
  step?: string | null;
  activation?: number | null;
  attempt?: number | null;
  data: EventData<T>;
  reason?: string | null;
}

/** A real run, or a replay of one against another definition (weft replay), stored apart (migration 13). */
export type RunKind = 'run' | 'replay';

export interface RunRow {
  id: string;
  /** The idempotency key a run was created with (weft run --key), if any. */
  key?: string | null;
  workflowId: string;
  version: number;
  state: RunState;
  inputRevision: number;
  createdAt: number;
  updatedAt: number;
}

export interface StepProjection {
  stepId: string;
  activation: number;
  state: string;
  attempts: number;
  evidenceId: string | null;
}

export interface ExternalEvent {
  id: string;
  name: string;
  key: string;
  data: unknown;
  receivedAt: number;
}

export interface StoreStats {
  commits: number;
  durableCommits: number;
  rows: number;
  bytes: number;
}
