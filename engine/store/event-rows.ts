// A row of the `events` table as an event, two ways. toEvent checks the event's data against its
// zod schema (shared/events/run-event.ts): what readEvents and readEventsAfter return goes to
// readers, the API and the live stream, where a row that is not weft's must be named, not passed
// on. toLoggedEvent, for the engine's own loads of a run (readRunLog; fold-run.ts: resume,
// recovery, rebuilt projections), skips it: every event in the log was written by append() from
// data the engine's types vouch for, in a transaction, so re-parsing it on each load only costs (a
// resume of 1,000 runs parsed each of their events again). What still guards a log read that way:
// the store's log check (check-log.ts) before anything writes (every type known, every run
// gapless, every snapshot the one stored), SQLite's own checks of its pages, and here every row's
// type, JSON and object shape. Data damaged inside a well-formed object (a key or value changed in
// the file) is the gap: a fold that trips over it is read again with the full check, which names
// the event (fold-run.ts), and what comes from outside the log (a definition file, a forwarded
// command, a scenario) is parsed where it enters.
import { EVENT_DATA, parseEventData, runEvent, widenEvent, type EventData, type EventType, type RunEvent } from '../../shared/events/run-event.ts';
import type { PolicyRows } from './policy-snapshots.ts';
import { readCost } from './stored-cost.ts';
import { StoreError } from './store-error.ts';

/** The columns of `events` after the cursor, in the order the store selects and inserts them. */
export type EventRow = [runId: string, seq: number, at: number, type: string, step: string | null, activation: number | null, attempt: number | null, data: string, reason: string | null];

export const EVENT_COLUMNS = 'run_id, seq, at, type, step, activation, attempt, data, reason';

/** A number from a caller (a page's bounds) as a whole number ≥ `min`, or a StoreError ('bad-input'). */
export function wholeNumber(name: string, value: number, min: number): number {
  if (!Number.isSafeInteger(value) || value < min) throw new StoreError('bad-input', `${name} must be a whole number ≥ ${min}, not ${value}`);
  return value;
}

/** A run's log is gapless from 1: a hole means rows were lost, and folding past it would build a run that never was. */
export function gapless(runId: string, rows: readonly EventRow[], after: number): void {
  // A page starts right after `after`, so its k-th row is after+k+1.
  rows.forEach((r, k) => {
    if (r[1] !== after + k + 1) throw new StoreError('damaged', `run ${runId} has a gap in its event log: event ${after + k + 1} is missing; the store is damaged (restore it from a backup)`);
  });
}

/**
 * A row's type, if this Weft knows it, and its data parsed as JSON (a run_created's policy rules
 * put back from the store's policies, policy-snapshots.ts; an attempt's cost its currency and
 * basis, stored-cost.ts); else the damage, named.
 */
function rowParts([runId, seq, , type, , , , data]: EventRow, policies: PolicyRows): { where: string; known: EventType; parsed: unknown } {
  const where = `run ${runId} event ${seq}`;
  if (!isEventType(type)) {
    throw new StoreError('damaged', `${where}: unknown event type ${JSON.stringify(type)}; the store is damaged, or was written by a newer Weft (use that Weft to read it)`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    throw new StoreError('damaged', `${where}: stored data is not JSON; the store is damaged`);
  }
  return { where, known: type, parsed: policies.expand(type, readCost(type, parsed), where) };
}

function isEventType(type: string): type is EventType {
  return Object.hasOwn(EVENT_DATA, type);
}

/** A row as an event, its data checked against the schema of its type. */
export function toEvent(row: EventRow, policies: PolicyRows): RunEvent {
  const { where, known, parsed } = rowParts(row, policies);
  const [runId, seq, at, , step, activation, attempt, , reason] = row;
  try {
    return widenEvent(runEvent(known, parseEventData(known, parsed, where), { runId, seq, at, step, activation, attempt, reason }));
  } catch (e) {
    throw new StoreError('damaged', `${(e as Error).message}; the store is damaged, or was written by a newer Weft`);
  }
}

/** A row as an event, its data taken as append() wrote it (readRunLog): an object, not re-parsed. */
export function toLoggedEvent(row: EventRow, policies: PolicyRows): RunEvent {
  const { where, known, parsed } = rowParts(row, policies);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new StoreError('damaged', `${where}: ${known} event data is not an object; the store is damaged`);
  }
  // The one unchecked step from stored JSON to typed data; the header says why it is sound.
  const data = parsed as EventData<typeof known>;
  return widenEvent(runEvent(known, data, { runId: row[0], seq: row[1], at: row[2], step: row[4], activation: row[5], attempt: row[6], reason: row[8] }));
}
