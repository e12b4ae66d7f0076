// Snapshots of big runs' folded models (migration 12), a projection of the event log: the cold
// read of a run of 100,000 events read, decoded and folded its whole log (about 1 s), where a
// reader now loads the snapshot and folds only the events after it. Each row holds, as of one
// event of the run (its seq, and that event's cursor):
// - the run's model (shared/run/run-model.ts) without its definition, in V8's serialization
//   (node:v8), which keeps Maps, Sets, undefined and the objects the model shares between its
//   maps (an evidence is in `evidence`, `evidenceByStep` and its step) as they are;
// - the run's summary, RunDetail cut to each step's latest DETAIL_ATTEMPTS attempts, as JSON: a
//   read of a run with no event after the snapshot (a finished run) sends it without folding.
// The engine offers the model it holds after each tick that changed the run (RunProjector); a
// run of at least `minEvents` events gets a snapshot when it finishes and every `every` events
// on its way, written in the commit of the events it covers, so a crash loses both or neither.
//
// The log stays the only truth. A snapshot is a fold of a prefix of an append-only log, so it
// stays right as the log grows (an operator's retry after it: the reader folds the events after
// it); it is used only if its format is this Weft's (RUN_SNAPSHOT_FORMAT, raised whenever the
// model or the fold changes), the event it names still has the cursor it recorded, and its bytes
// hash to what was written; anything else reads as no snapshot, and the reader folds the whole log.
import { createHash } from 'node:crypto';
import { deserialize, serialize } from 'node:v8';
import type { Statement } from './db.ts';
import { isFinishedRunState } from '../../shared/definition/names.ts';
import type { RunDetail } from '../../shared/api/run-detail.ts';
import { DETAIL_ATTEMPTS } from '../../shared/api/read-limits.ts';
import { runDetail } from '../../shared/run/run-detail.ts';
import type { RunModel } from '../../shared/run/run-model.ts';
import type { Db } from './db.ts';
import type { BatchPart, PendingWrites } from './unit-of-work.ts';

/**
 * The shape of the stored model and of the fold that made it. Raise it with any change to
 * RunModel, to applyEvent's meaning or to RunDetail: older snapshots are then passed over (and
 * replaced as their runs get snapshots again), never read as this Weft's model.
 * test/store/run-snapshots.test.ts pins the fold's sources to this number.
 */
export const RUN_SNAPSHOT_FORMAT = 8;

/** When a run gets a snapshot: from `minEvents` events on, when it finishes and every `every` events. */
export interface SnapshotPolicy {
  minEvents: number;
  every: number;
}

/** A log this short folds in milliseconds; from 10,000 on, a live run's reader folds at most `every` events after the snapshot. */
export const SNAPSHOT_POLICY: SnapshotPolicy = { minEvents: 2_000, every: 10_000 };

/**
 * The model is the last column: SQLite reads a row's columns in order, and the model's megabytes
 * lie in a chain of overflow pages that a read of the summary (or of the seq) never walks.
 */
export const RUN_SNAPSHOTS_SQL = `
  CREATE TABLE run_snapshots (
    run_id TEXT PRIMARY KEY,
    seq INTEGER NOT NULL,
    cursor INTEGER NOT NULL,
    format INTEGER NOT NULL,
    summary_attempts INTEGER NOT NULL,
    summary_hash TEXT NOT NULL,
    model_hash TEXT NOT NULL,
    summary TEXT NOT NULL,
    model BLOB NOT NULL
  );
`;

/** A stored model as read back: everything but the definition, which the store adds from its snapshot. */
export type StoredModel = Omit<RunModel, 'workflow'>;

interface Pending {
  runId: string;
  seq: number;
  model: Buffer;
  summary: string;
}

const hashOf = (bytes: Buffer | string): string => createHash('sha1').update(bytes).digest('hex');

export class RunSnapshots implements BatchPart {
  private readonly statements = new Map<string, Statement>();
  /** The seq of each offered run's stored snapshot (0 for none), as of the last commit. */
  private readonly covered = new Map<string, number>();
  private pending = new Map<string, Pending>();
  /** Once the store is seen to have the table: one opened read-only before migration 12 (or by a test at an older schema) has none yet. */
  private table = false;

  constructor(
    private readonly db: Db,
    private readonly policy: SnapshotPolicy = SNAPSHOT_POLICY,
  ) {}

  /** Prepared on first use: a store opened at an older schema (tests build them) has no table yet. */
  private stmt(sql: string): Statement {
    let st = this.statements.get(sql);
    if (st === undefined) this.statements.set(sql, (st = this.db.prepare(sql)));
    return st;
  }

  private hasTable(): boolean {
    if (!this.table) this.table = this.stmt("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'run_snapshots'").get() !== undefined;
    return this.table;
  }

  get hasPending(): boolean {
    return this.pending.size > 0;
  }

  /**
   * The engine's model of a run after a tick: taken (serialized now, as it is) for the next
   * commit if the policy says a snapshot is due. Costs a comparison for a run under `minEvents`.
   */
  offer(model: RunModel): void {
    if (model.lastSeq < this.policy.minEvents || !this.hasTable()) return;
    const covered = this.pending.get(model.runId)?.seq ?? this.coveredSeq(model.runId);
    const due = isFinishedRunState(model.state) ? model.lastSeq > covered : model.lastSeq - covered >= this.policy.every;
    if (due) this.pending.set(model.runId, encode(model));
  }

  take(): PendingWrites {
    const rows = [...this.pending.values()];
    this.pending = new Map();
    return {
      rows: rows.length,
      write: () => {
        for (const r of rows) this.put(r);
      },
      committed: () => {
        for (const r of rows) this.covered.set(r.runId, r.seq);
      },
    };
  }

  /** Writes `r` now (inside the caller's transaction), with the cursor of the event it covers. */
  private put(r: Pending): void {
    const at = this.stmt('SELECT cursor FROM events WHERE run_id = ? AND seq = ?').raw().get(r.runId, r.seq) as [number] | undefined;
    if (at === undefined) return; // the log has no such event: nothing to cover
    this.stmt(
      `INSERT INTO run_snapshots (run_id, seq, cursor, format, model, model_hash, summary, summary_attempts, summary_hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (run_id) DO UPDATE SET seq = excluded.seq, cursor = excluded.cursor, format = excluded.format, model = excluded.model,
         model_hash = excluded.model_hash, summary = excluded.summary, summary_attempts = excluded.summary_attempts, summary_hash = excluded.summary_hash`,
    ).run(r.runId, r.seq, at[0], RUN_SNAPSHOT_FORMAT, r.model, hashOf(r.model), r.summary, DETAIL_ATTEMPTS, hashOf(r.summary));
  }

  /** Writes the snapshot of `model` now, whatever the policy says (migration 12's backfill). */
  write(model: RunModel): void {
    const r = encode(model);
    this.put(r);
    this.covered.set(r.runId, r.seq);
  }

  /** Runs whose log has at least `events` events (a scan of the log's index: for migration 12). */
  runsWithEvents(events: number): string[] {
    return (this.stmt('SELECT run_id FROM events WHERE seq = ?').raw().all(events) as [string][]).map(([id]) => id);
  }

  private coveredSeq(runId: string): number {
    let seq = this.covered.get(runId);
    if (seq === undefined) {
      const row = this.stmt('SELECT seq FROM run_snapshots WHERE run_id = ?').raw().get(runId) as [number] | undefined;
      this.covered.set(runId, (seq = row?.[0] ?? 0));
    }
    return seq;
  }

  /**
   * The run's stored model, if there is one this Weft can trust (the header): the caller folds
   * the events after its lastSeq. Undefined when there is none, or it is of another format, names
   * an event that is not the one it covered, or its bytes are damaged.
   */
  model(runId: string): StoredModel | undefined {
    if (!this.hasTable()) return undefined;
    const row = this.stmt(
      `SELECT s.seq, s.format, s.model, s.model_hash, s.cursor = (SELECT e.cursor FROM events e WHERE e.run_id = @run AND e.seq = s.seq)
       FROM run_snapshots s WHERE s.run_id = @run`,
    ).raw().get({ run: runId }) as [number, number, Buffer, string, number | null] | undefined;
    if (row === undefined) return undefined;
    const [seq, format, bytes, hash, sameEvent] = row;
    if (format !== RUN_SNAPSHOT_FORMAT || sameEvent !== 1 || !Buffer.isBuffer(bytes) || hashOf(bytes) !== hash) return undefined;
    try {
      const value: unknown = deserialize(bytes);
      return isStoredModel(value, runId, seq) ? value : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The run's stored summary (RunDetail cut to its steps' latest `latestAttempts` attempts,
   * without the definition) if it is the run as its log is now: no event after the one it
   * covers, of this format and cut, undamaged.
   */
  currentSummary(runId: string, latestAttempts: number): RunDetail | undefined {
    if (!this.hasTable()) return undefined;
    // The run id is bound in each subquery (@run), so SQLite finds the run's last seq by one seek of
    // events_by_run (a correlated MAX would walk all of the run's index entries).
    const row = this.stmt(
      `SELECT s.seq, s.format, s.summary, s.summary_attempts, s.summary_hash,
         s.cursor = (SELECT e.cursor FROM events e WHERE e.run_id = @run AND e.seq = s.seq),
         (SELECT MAX(e.seq) FROM events e WHERE e.run_id = @run)
       FROM run_snapshots s WHERE s.run_id = @run`,
    ).raw().get({ run: runId }) as [number, number, string, number, string, number | null, number | null] | undefined;
    if (row === undefined) return undefined;
    const [seq, format, text, attempts, hash, sameEvent, last] = row;
    if (format !== RUN_SNAPSHOT_FORMAT || attempts !== latestAttempts || sameEvent !== 1 || last !== seq || hashOf(text) !== hash) return undefined;
    try {
      const value: unknown = JSON.parse(text);
      return isStoredSummary(value, runId, seq) ? value : undefined;
    } catch {
      return undefined;
    }
  }
}

/** The row of `model` as of now: it changes after this, the bytes do not. */
function encode(model: RunModel): Pending {
  const { workflow: _definition, ...stored } = model;
  return { runId: model.runId, seq: model.lastSeq, model: serialize(stored), summary: JSON.stringify(runDetail(model, { latestAttempts: DETAIL_ATTEMPTS })) };
}

/** What deserialize gave looks like the model of this run at `seq` (its hash matched: this guards against a row of another run or format). */
function isStoredModel(v: unknown, runId: string, seq: number): v is StoredModel {
  if (v === null || typeof v !== 'object') return false;
  const o = v as Partial<Record<keyof StoredModel, unknown>>;
  return o.runId === runId && o.lastSeq === seq && o.steps instanceof Map && o.edges instanceof Map && o.evidence instanceof Map && o.evidenceByStep instanceof Map && o.traversals instanceof Map && typeof o.state === 'string';
}

/**
 * What JSON.parse gave looks like the summary of this run at `seq`. Its hash matched, so these are
 * the bytes the writer wrote from runDetail (a zod parse of RunDetail would cost the worker's first
 * read some 70 ms to compile the schema, for nothing the hash does not already tell).
 */
function isStoredSummary(v: unknown, runId: string, seq: number): v is RunDetail {
  if (v === null || typeof v !== 'object' || !('run' in v) || !('steps' in v) || !Array.isArray(v.steps)) return false;
  const run: unknown = v.run;
  return run !== null && typeof run === 'object' && 'id' in run && run.id === runId && 'lastSeq' in run && run.lastSeq === seq;
}
