// The event log's job in the store: append() numbers each run's events (gapless from 1) and holds
// them for the next commit (unit-of-work.ts), which inserts them, CHUNK rows per statement, and
// publishes them to subscribers with their global cursor once the commit returns
// (commit-listeners.ts, migration 7). The log's reads: a run's events checked or as the engine
// loads them (event-rows.ts says why two ways), a page of the whole log by cursor, and the
// questions asked of the log alone (which runs it has, the newest cursor, debug runs). On
// PostgreSQL, where other engines commit to the same store, subscribers hear theirs too
// (pg/log-tail.ts).
import { widenEvent, type EventType, type RunEvent } from '../../shared/events/run-event.ts';
import { CommitListeners, type CommitListener, type CommittedEvent } from './commit-listeners.ts';
import { EVENT_COLUMNS, gapless, toEvent, toLoggedEvent, wholeNumber, type EventRow } from './event-rows.ts';
import { storedCost, storedShort } from './stored-cost.ts';
import type { PolicyRows } from './policy-snapshots.ts';
import { debugRunIds, lastCursor } from './run-list.ts';
import type { CursorPage, NewEvent, RunEventPage } from './store-types.ts';
import type { BatchPart, PendingWrites, UnitOfWork } from './unit-of-work.ts';
import { WrittenLogs } from './written-logs.ts';
import type { SqlRunResult } from './pg/sql-db.ts';
import { logTailOf, type LogTail } from './pg/log-tail.ts';

/** Rows per INSERT: one call into SQLite per CHUNK events instead of per event. */
const CHUNK = 64;
const DEFAULT_CURSOR_PAGE = 1_000;

export class EventLog implements BatchPart {
  private readonly seqs = new Map<string, number>();
  private pending: EventRow[] = [];
  /** The events of `pending`, as append returned them: what listeners get after the commit. */
  private pendingEvents: RunEvent[] = [];
  private readonly listeners = new CommitListeners();
  private readonly insertEvent;
  private readonly insertEvents;
  /** The whole logs of the runs this store created and has not seen finish (written-logs.ts). */
  private readonly written = new WrittenLogs();
  /** On PostgreSQL, what publishes other engines' commits too (pg/log-tail.ts): started by the first subscriber. */
  private readonly tail: LogTail | undefined;

  /** `policies`: where a run_created's policy is stored by hash and read back (policy-snapshots.ts). */
  constructor(private readonly work: UnitOfWork, private readonly policies: PolicyRows) {
    const values = '(?, ?, ?, ?, ?, ?, ?, ?, ?)';
    this.insertEvent = work.stmt(`INSERT INTO events (${EVENT_COLUMNS}) VALUES ${values}`);
    this.insertEvents = work.stmt(`INSERT INTO events (${EVENT_COLUMNS}) VALUES ${Array.from({ length: CHUNK }, () => values).join(', ')}`);
    this.tail = logTailOf(work.db, this, this.listeners);
  }

  append<T extends EventType>(e: NewEvent<T>): RunEvent<T> {
    const seq = this.nextSeq(e.runId);
    const event: RunEvent<T> = {
      runId: e.runId,
      seq,
      at: e.at,
      type: e.type,
      step: e.step ?? null,
      activation: e.activation ?? null,
      attempt: e.attempt ?? null,
      data: e.data,
      reason: e.reason ?? null,
    };
    const data = this.policies.storedJson(e.type, storedCost(e.type, e.data));
    this.pending.push([e.runId, seq, e.at, e.type, event.step, event.activation, event.attempt, data, event.reason]);
    const wide = widenEvent(event);
    this.pendingEvents.push(wide);
    this.written.add(wide);
    this.work.stats.bytes += data.length;
    return event;
  }

  get hasPending(): boolean {
    return this.pending.length > 0;
  }

  take(): PendingWrites {
    const rows = this.pending;
    const events = this.pendingEvents;
    this.pending = [];
    this.pendingEvents = [];
    let lastInsert: SqlRunResult | undefined;
    return {
      rows: rows.length,
      events,
      write: () => {
        // The cursor is the rowid SQLite assigns (migration 7), or the number PostgreSQL's trigger
        // takes from log_head: consecutive within this transaction, which holds the write lock, so
        // the last one gives all of them. It is read after the commit (PostgreSQL's answer to the
        // INSERT arrives with the commit's, in one round trip: pg-db.ts).
        let k = 0;
        for (; k + CHUNK <= rows.length; k += CHUNK) lastInsert = this.insertEvents.run(rows.slice(k, k + CHUNK).flat());
        for (; k < rows.length; k++) lastInsert = this.insertEvent.run(rows[k]);
      },
      committed: () => {
        if (this.listeners.size === 0 || events.length === 0 || lastInsert === undefined) return;
        const first = Number(lastInsert.lastInsertRowid) - events.length + 1;
        const committed = events.map((event, i) => ({ cursor: first + i, event, dataJson: publishedJson(event, rows[i]?.[7]) }));
        if (this.tail === undefined) this.listeners.publish(committed);
        else this.tail.committed(committed);
      },
      // Nothing of the batch was written: forget its sequence numbers so the log stays gapless.
      failed: () => {
        for (const r of rows) {
          this.seqs.delete(r[0]);
          this.written.forget(r[0]);
        }
      },
    };
  }

  /** On PostgreSQL the first subscriber starts the log tail, and the last to leave stops it. */
  subscribe(listener: CommitListener, onError?: (error: unknown) => void): () => void {
    const unsubscribe = this.listeners.add(listener, onError);
    this.tail?.start();
    return () => {
      unsubscribe();
      if (this.listeners.size === 0) this.tail?.stop();
    };
  }

  readEvents(runId: string, page: RunEventPage = {}): RunEvent[] {
    const after = wholeNumber('after', page.after ?? 0, 0);
    // SQLite reads a negative LIMIT as "no limit".
    const limit = page.limit === undefined ? -1 : wholeNumber('limit', page.limit, 1);
    const rows = this.work.stmt(`SELECT ${EVENT_COLUMNS} FROM events WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?`).raw().all(runId, after, limit) as EventRow[];
    gapless(runId, rows, after);
    return rows.map((r) => toEvent(r, this.policies));
  }

  /**
   * The whole log of a run that finishes in the batch being written, as this store appended it,
   * no longer kept from then on; or undefined when it is not kept (written-logs.ts): read it back
   * with readRunLog. The rollups take it once, as the run finishes (run-rollups.ts).
   */
  takeWrittenLog(runId: string): readonly RunEvent[] | undefined {
    const log = this.written.of(runId);
    this.written.forget(runId);
    return log;
  }

  readRunLog(runId: string): RunEvent[] {
    const rows = this.work.stmt(`SELECT ${EVENT_COLUMNS} FROM events WHERE run_id = ? ORDER BY seq`).raw().all(runId) as EventRow[];
    gapless(runId, rows, 0);
    return rows.map((r) => toLoggedEvent(r, this.policies));
  }

  /**
   * The logs of several runs as readRunLog reads each (gapless, not re-parsed), in one query:
   * recovery reads every unfinished run, and a query per run cost a resume of 1,000 runs a
   * thousand round trips into SQLite. A run without events maps to an empty log.
   */
  readRunLogs(runIds: readonly string[]): Map<string, RunEvent[]> {
    const logs = new Map<string, RunEvent[]>(runIds.map((id) => [id, []]));
    if (runIds.length === 0) return logs;
    // The IN list is looked up in the run's index in order, so ORDER BY costs no sort.
    const rows = this.work.stmt(`SELECT ${EVENT_COLUMNS} FROM events WHERE run_id IN (SELECT value FROM json_each(?)) ORDER BY run_id, seq`).raw().all(JSON.stringify(runIds)) as EventRow[];
    for (let start = 0; start < rows.length; ) {
      const runId = rows[start]?.[0] ?? '';
      let end = start + 1;
      while (end < rows.length && rows[end]?.[0] === runId) end++;
      const runRows = rows.slice(start, end);
      gapless(runId, runRows, 0);
      logs.set(runId, runRows.map((r) => toLoggedEvent(r, this.policies)));
      start = end;
    }
    return logs;
  }

  readEventsAfter(cursor: number, page: CursorPage = {}): CommittedEvent[] {
    const after = wholeNumber('cursor', cursor, 0);
    const limit = wholeNumber('limit', page.limit ?? DEFAULT_CURSOR_PAGE, 1);
    const runs = page.runs ?? 'all';
    const columns = `cursor, ${EVENT_COLUMNS}`;
    const statement = runs === 'all'
      ? this.work.stmt(`SELECT ${columns} FROM events WHERE cursor > ? ORDER BY cursor LIMIT ?`).raw()
      : this.work.stmt(`SELECT ${columns} FROM events WHERE cursor > ? AND run_id IN (SELECT value FROM json_each(?)) ORDER BY cursor LIMIT ?`).raw();
    const params = runs === 'all' ? [after, limit] : [after, JSON.stringify(runs), limit];
    const maxChars = page.maxChars === undefined ? undefined : wholeNumber('maxChars', page.maxChars, 1);
    const committed = ([c, ...row]: [number, ...EventRow]): CommittedEvent => {
      const event = toEvent(row, this.policies);
      return { cursor: c, event, dataJson: publishedJson(event, row[7]) };
    };
    if (maxChars === undefined) return (statement.all(...params) as [number, ...EventRow][]).map(committed);
    // Row by row, so the rows past the budget are never read into memory.
    const out: CommittedEvent[] = [];
    let chars = 0;
    for (const row of statement.iterate(...params) as IterableIterator<[number, ...EventRow]>) {
      out.push(committed(row));
      chars += row[8].length;
      if (chars >= maxChars) break;
    }
    return out;
  }

  newRun(runId: string): void {
    this.seqs.set(runId, 0);
  }

  knownLastSeq(runId: string, seq: number): void {
    if (!this.seqs.has(runId)) this.seqs.set(runId, seq);
  }

  private nextSeq(runId: string): number {
    let last = this.seqs.get(runId);
    if (last === undefined) {
      const row = this.work.stmt('SELECT MAX(seq) AS m FROM events WHERE run_id = ?').get(runId) as { m: number | null };
      last = row.m ?? 0;
    }
    this.seqs.set(runId, last + 1);
    return last + 1;
  }

  hasEvents(runId: string): boolean {
    return this.work.stmt('SELECT 1 FROM events WHERE run_id = ? LIMIT 1').get(runId) !== undefined;
  }

  loggedRunIds(): string[] {
    return (this.work.stmt('SELECT DISTINCT run_id AS id FROM events').all() as { id: string }[]).map((r) => r.id);
  }

  lastCursor(runId?: string): number {
    return lastCursor(this.work.db, runId);
  }

  debugRunIds(runIds: readonly string[]): Set<string> {
    return debugRunIds(this.work.db, runIds);
  }
}

/**
 * The data JSON readers get with an event: the stored row's, except a run_created's, whose policy
 * the row names by hash only, and an attempt's whose cost the row stores short (stored-cost.ts).
 */
function publishedJson(event: RunEvent, stored: string | undefined): string | undefined {
  const asStored = !(event.type === 'run_created' && event.data.policy !== undefined) && !storedShort(event.type, event.data);
  return asStored ? stored : JSON.stringify(event.data);
}
