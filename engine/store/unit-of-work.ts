// The store's one unit of work: what the engine appends and projects during a tick is held in
// memory by the store's job files (event-log.ts, external-events.ts, projections.ts, and the
// rollups after them) and written by flush() in one transaction: one commit per engine tick, not
// one per event, and never part of a batch without the rest (a run's events, its projection rows,
// the external event it consumed and its rollup commit together, or none of them do). flush
// (durable) raises synchronous to FULL for that commit, so the record that an external attempt is
// about to start reaches the disk before the attempt does. Only after the commit returns does a
// part hear that it is committed (the event log then publishes to subscribers); if the commit
// fails, nothing of the batch was written and each part forgets it.
//
// It also holds the connection and the store's prepared statements, for the job files only:
// nothing outside engine/store/ reaches `db` (test/lint/store-connection.test.ts).
import type { Statement } from './db.ts';
import type { RunEvent } from '../../shared/events/run-event.ts';
import type { Db } from './db.ts';
import type { StoreStats } from './store-types.ts';

/** What one commit writes: the events it appends, for the parts after the event log (rollups). */
export interface CommitBatch {
  readonly events: readonly RunEvent[];
}

/** A part's writes, handed over to a commit. */
export interface PendingWrites {
  /** Rows it writes, counted in the store's stats. */
  readonly rows: number;
  /** The events it appends (the event log's part has them). */
  readonly events?: readonly RunEvent[];
  /** Writes them, inside the commit's transaction, after the parts added before this one. */
  write(batch: CommitBatch): void;
  /** The commit is done: what it wrote is there for every reader. */
  committed?(): void;
  /** The commit failed: nothing of the batch was written. */
  failed?(): void;
}

/** A job file's share of the batch. */
export interface BatchPart {
  /** Whether it holds writes that call for a commit. */
  readonly hasPending: boolean;
  /** Its writes for the next commit; the part holds none afterwards. */
  take(): PendingWrites;
}

export class UnitOfWork {
  readonly stats: StoreStats = { commits: 0, durableCommits: 0, rows: 0, bytes: 0 };
  private readonly parts: BatchPart[] = [];
  private readonly statements = new Map<string, Statement>();
  private readonly commit: (writes: readonly PendingWrites[], batch: CommitBatch) => void;
  /** Runs first in each commit's transaction (PostgreSQL's fence: pg-coordination.ts); its failure fails the commit. */
  private guard: ((batch: CommitBatch) => void) | undefined;

  /** `db` is for the store's job files only (the header). */
  constructor(readonly db: Db) {
    this.commit = db.transaction((writes: readonly PendingWrites[], batch: CommitBatch) => {
      this.guard?.(batch);
      for (const w of writes) w.write(batch);
    });
  }

  /** Sets what every commit's transaction does first, before any part writes. */
  guardWith(guard: (batch: CommitBatch) => void): void {
    this.guard = guard;
  }

  /** Adds a part; parts write in the order they were added. */
  add(part: BatchPart): void {
    this.parts.push(part);
  }

  /** Statements are prepared once per store, not once per call (recovery reads thousands of runs). */
  stmt(sql: string): Statement {
    let st = this.statements.get(sql);
    if (st === undefined) this.statements.set(sql, (st = this.db.prepare(sql)));
    return st;
  }

  /** `body` in a transaction of its own, outside the batch: a write that commits at once, or reads as of one snapshot. */
  transaction<T>(body: () => T): T {
    return this.db.transaction(body)();
  }

  get hasPending(): boolean {
    return this.parts.some((p) => p.hasPending);
  }

  /** Writes the batch in one transaction; with `durable`, that commit is fsynced. */
  flush(durable = false): void {
    if (!this.hasPending) return;
    const writes = this.parts.map((p) => p.take());
    const batch: CommitBatch = { events: writes.flatMap((w) => w.events ?? []) };
    try {
      if (durable) this.db.pragma('synchronous = FULL');
      this.commit(writes, batch);
    } catch (e) {
      for (const w of writes) w.failed?.();
      throw e;
    } finally {
      if (durable) this.db.pragma('synchronous = NORMAL');
    }
    this.stats.commits++;
    if (durable) this.stats.durableCommits++;
    for (const w of writes) this.stats.rows += w.rows;
    // Committed: now, and only now, the parts (and through them subscribers) hear of it.
    for (const w of writes) w.committed?.();
  }
}
