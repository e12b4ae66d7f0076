// What each workflow spent per day (UTC, engine clock), for the daily budgets of a workspace
// policy (docs/budgets.md), in millionths of the currency's unit (as sumCost adds), kept in the
// commit that writes the attempt events carrying a cost, so the sum can never disagree with the
// log. Two places hold it:
// - a run still going keeps what it spent on its latest day of spending on its own row
//   (`runs.spend_day`, `runs.spend_micros`, migration 17): the row its commit writes anyway, so an
//   attempt's cost adds no page to the commit;
// - `spend_by_day` (migration 15) holds the rest, one row per day and workflow: a run's spend
//   moves there when the run finishes, and when it spends on a later day than its row's.
// Admission reads the day's rows of both (the runs' through a partial index of the runs that
// spend), instead of the attempt events of every run of the day, and keeps them between reads
// while no other connection commits.
import { toMicros } from '../../shared/cost/attempt-cost.ts';
import type { RunEvent } from '../../shared/events/run-event.ts';
import { isFinishedRunState } from '../../shared/definition/names.ts';
import type { BatchPart, PendingWrites, UnitOfWork } from './unit-of-work.ts';

/** Milliseconds in a day: a day is `Math.floor(at / DAY_MS)` (UTC). */
export const DAY_MS = 86_400_000;

const ATTEMPT_ENDS = ['attempt_succeeded', 'attempt_failed', 'attempt_unknown'] as const;

/** Migration 15's table. */
export const SPEND_BY_DAY_SQL = `
  CREATE TABLE spend_by_day (
    day INTEGER NOT NULL,
    workflow_id TEXT NOT NULL,
    micros INTEGER NOT NULL,
    PRIMARY KEY (day, workflow_id)
  ) WITHOUT ROWID;
  INSERT INTO spend_by_day (day, workflow_id, micros)
    SELECT e.at / ${DAY_MS}, r.workflow_id, SUM(CAST(ROUND(json_extract(e.data, '$.meta.cost.amount') * 1000000) AS INTEGER))
    FROM events e JOIN runs r ON r.id = e.run_id
    WHERE e.type IN (${ATTEMPT_ENDS.map((t) => `'${t}'`).join(', ')}) AND r.kind = 'run' AND json_extract(e.data, '$.meta.cost.amount') IS NOT NULL
    GROUP BY 1, 2;
`;

/** Migration 17: a running run's spend of its latest day, on its row; the index holds only runs that have one. */
export const RUN_SPEND_SQL = `
  ALTER TABLE runs ADD COLUMN spend_day INTEGER;
  ALTER TABLE runs ADD COLUMN spend_micros INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX runs_spending ON runs (spend_day) WHERE spend_day IS NOT NULL;
`;

/** What was spent on one day: by the workflow asked about, and by the whole workspace (the store). */
export interface DaySpent {
  workflow: number;
  workspace: number;
}

/** What a run's row says of its spend; null for a run that does not count (a replay) or has no row. */
type RunSpendRow = { workflowId: string; day: number | null; micros: number } | null;

/** Runs whose row afterWrite keeps before it starts again. */
const ROW_CACHE = 10_000;

/** What is added to a day's spend of a workflow, in millionths. */
interface SpendAdded {
  day: number;
  workflowId: string;
  micros: number;
}

export class DaySpend implements BatchPart {
  readonly hasPending = false;
  /**
   * The rows of the day asked about last, as of `version` (SQLite's data_version, which moves when
   * another connection commits): this store's own commits add to them as they are written, so a
   * run's admission reads no row while nobody else wrote.
   */
  private cached: { day: number; version: number; micros: Map<string, number> } | undefined;
  /**
   * What the rows of runs seen lately hold (workflow, spend day, spend), as of `rowsVersion`: this
   * store writes them, and a run it created has none yet. Forgotten whole when another
   * connection has committed since (a command that acted on a run in another process).
   */
  private readonly rows = new Map<string, RunSpendRow>();
  private rowsVersion: number | undefined;
  private present: boolean | undefined;

  constructor(private readonly work: UnitOfWork) {}

  /**
   * What was spent on `day` (a UTC day number, Math.floor(ms / DAY_MS)), as of the last commit.
   *
   * @example store.spend.on(Math.floor(clock.now() / DAY_MS), 'order-flow') // { workflow: 1.2, workspace: 4.75 }
   */
  on(day: number, workflowId: string): DaySpent {
    const version = this.work.stmt('PRAGMA data_version').pluck().get() as number;
    let c = this.cached;
    if (c === undefined || c.day !== day || c.version !== version) {
      const rows = this.work.stmt(`
        SELECT workflow_id, sum(micros) FROM (
          SELECT workflow_id, micros FROM spend_by_day WHERE day = ?
          UNION ALL SELECT workflow_id, spend_micros FROM runs WHERE spend_day = ?
        ) GROUP BY workflow_id`).raw().all(day, day) as [string, number][];
      this.cached = c = { day, version, micros: new Map(rows) };
    }
    let workspace = 0;
    for (const micros of c.micros.values()) workspace += micros;
    return { workflow: (c.micros.get(workflowId) ?? 0) / 1_000_000, workspace: workspace / 1_000_000 };
  }

  /**
   * Which of `runIds` wait for a daily budget now: their latest run_queued or run_dequeued is a
   * run_queued for budget. Read from the log (an indexed probe per run), for the runs list's mark.
   */
  waitingForBudget(runIds: readonly string[]): Set<string> {
    if (runIds.length === 0) return new Set();
    const marks = runIds.map(() => '?').join(', ');
    const rows = this.work.db.prepare(`
      SELECT e.run_id FROM events e
      WHERE e.run_id IN (${marks}) AND e.type = 'run_queued' AND json_extract(e.data, '$.for') = 'budget'
        AND e.seq = (SELECT max(x.seq) FROM events x WHERE x.run_id = e.run_id AND x.type IN ('run_queued', 'run_dequeued'))
    `).raw().all(...runIds) as [string][];
    return new Set(rows.map(([id]) => id));
  }

  take(): PendingWrites {
    let added: SpendAdded[] = [];
    return {
      rows: 0,
      write: ({ events }) => {
        added = this.afterWrite(events);
      },
      // Nothing was written: the rows kept may say what the batch would have written.
      failed: () => {
        this.rows.clear();
      },
      // Written: the day kept for admission has them too (what failed is in neither).
      committed: () => {
        const c = this.cached;
        if (c === undefined) return;
        for (const x of added) if (x.day === c.day) c.micros.set(x.workflowId, (c.micros.get(x.workflowId) ?? 0) + x.micros);
      },
    };
  }

  /**
   * Adds the costs of the batch's attempt events to their runs' rows, inside the commit: per run, one
   * read of its row and one write of it (a row the commit's projection has written already). A
   * run's spend moves to `spend_by_day` when it spends on another day than its row's, and when the
   * batch finishes the run. Returns what the batch spent, per day and workflow, for the day kept.
   */
  private afterWrite(events: readonly RunEvent[]): SpendAdded[] {
    let costs: Map<string, [day: number, micros: number][]> | undefined;
    let finished: Set<string> | undefined;
    const version = this.work.stmt('PRAGMA data_version').pluck().get() as number;
    if (version !== this.rowsVersion) {
      this.rows.clear();
      this.rowsVersion = version;
    }
    for (const e of events) {
      if (e.type === 'run_created') {
        // A run this batch creates: its row (written by the projection just before) has spent nothing.
        if (this.rows.size >= ROW_CACHE) this.rows.clear();
        this.rows.set(e.runId, { workflowId: e.data.workflowId, day: null, micros: 0 });
        continue;
      }
      if (e.type === 'run_state_changed') {
        if (isFinishedRunState(e.data.state)) (finished ??= new Set()).add(e.runId);
        else finished?.delete(e.runId);
        continue;
      }
      if (e.type !== 'attempt_succeeded' && e.type !== 'attempt_failed' && e.type !== 'attempt_unknown') continue;
      const amount = e.data.meta?.cost?.amount;
      if (amount === undefined || amount === 0) continue;
      costs ??= new Map();
      const list = costs.get(e.runId);
      const item: [number, number] = [Math.floor(e.at / DAY_MS), toMicros(amount)];
      if (list === undefined) costs.set(e.runId, [item]);
      else list.push(item);
    }
    if ((costs === undefined && finished === undefined) || !this.kept()) return [];
    const spent: SpendAdded[] = [];
    const moved: SpendAdded[] = [];
    for (const runId of new Set([...(costs?.keys() ?? []), ...(finished ?? [])])) {
      const row = this.rowOf(runId);
      if (row === null) continue;
      const { workflowId, day: day0, micros: micros0 } = row;
      let day = day0;
      let micros = micros0;
      for (const [d, x] of costs?.get(runId) ?? []) {
        spent.push({ day: d, workflowId, micros: x });
        if (day !== null && day !== d && micros !== 0) moved.push({ day, workflowId, micros });
        if (day !== d) micros = 0;
        day = d;
        micros += x;
      }
      if (finished?.has(runId) && day !== null) {
        if (micros !== 0) moved.push({ day, workflowId, micros });
        day = null;
        micros = 0;
      }
      // Only a change of day touches the index (SQLite updates an index only for the columns a statement sets).
      if (day !== day0) this.work.stmt('UPDATE runs SET spend_day = ?, spend_micros = ? WHERE id = ?').run(day, micros, runId);
      else if (micros !== micros0) this.work.stmt('UPDATE runs SET spend_micros = ? WHERE id = ?').run(micros, runId);
      row.day = day;
      row.micros = micros;
    }
    if (moved.length > 0) {
      const add = this.work.stmt('INSERT INTO spend_by_day (day, workflow_id, micros) VALUES (?, ?, ?) ON CONFLICT (day, workflow_id) DO UPDATE SET micros = micros + excluded.micros');
      for (const x of moved) add.run(x.day, x.workflowId, x.micros);
    }
    return spent;
  }

  /** Whether runs keep their spend (schema 17): the builds of earlier migrations, and tests' older stores, run without it. */
  private kept(): boolean {
    this.present ??= (this.work.db.prepare("SELECT count(*) FROM pragma_table_info('runs') WHERE name = 'spend_day'").pluck().get() as number) === 1;
    return this.present;
  }

  /** The run's row as this store last wrote or read it; read when not known. A replay's (kind 'replay', not counted), or a missing one, is null. */
  private rowOf(runId: string): RunSpendRow {
    const known = this.rows.get(runId);
    if (known !== undefined) return known;
    const found = this.work.stmt("SELECT workflow_id, spend_day, spend_micros FROM runs WHERE id = ? AND kind = 'run'").raw().get(runId) as [string, number | null, number] | undefined;
    if (found === undefined) return null; // not kept: a row written later is read then
    const row = { workflowId: found[0], day: found[1], micros: found[2] };
    if (this.rows.size >= ROW_CACHE) this.rows.clear();
    this.rows.set(runId, row);
    return row;
  }

}
