// What each workflow spent per day (UTC, engine clock), for the daily budgets of a workspace
// policy (docs/budgets.md), in millionths of the currency's unit (as sumCost adds). It never
// disagrees with the log, because it is kept in the commits that write the attempt events, and
// an attempt's cost costs those commits nothing more:
// - a finished run's spend is in `spend_by_day` (migration 15), one row per day and workflow,
//   added and taken out with its rollup (cost-rollups.ts), in the commit that finishes it or
//   takes it back to running;
// - a run that is not finished and has spent is marked on its row (`runs.spend_day`, the first
//   day it spent on; migration 17), at its first cost or when it runs again: its spend is read
//   from its attempt events, which the log holds anyway. The mark goes when it finishes.
// Admission reads the day's rows and the marked runs' attempt events of the day (a partial index
// holds only marked runs), and keeps the answer between reads while no other connection commits,
// adding this store's own commits as they are written.
import { toMicros } from '../../shared/cost/attempt-cost.ts';
import type { RunEvent } from '../../shared/events/run-event.ts';
import { isFinishedRunState } from '../../shared/definition/names.ts';
import type { BatchPart, PendingWrites, UnitOfWork } from './unit-of-work.ts';
import type { RunMetrics } from '../../shared/api/workflow-stats.ts';
import type { CostEntry } from '../../shared/api/cost-stats.ts';

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

/** An attempt event's cost in millionths, in SQL (as toMicros rounds it). */
const MICROS_SQL = "CAST(ROUND(json_extract(e.data, '$.meta.cost.amount') * 1000000) AS INTEGER)";
const ENDS_SQL = ATTEMPT_ENDS.map((t) => `'${t}'`).join(', ');

/**
 * Migration 17: the mark of a run that has spent and is not finished, and spend_by_day made again
 * from the finished runs' cost rollups (until now it also held what running runs had spent,
 * which is read from their events now).
 */
export const RUN_SPEND_SQL = `
  ALTER TABLE runs ADD COLUMN spend_day INTEGER;
  CREATE INDEX runs_spending ON runs (spend_day) WHERE spend_day IS NOT NULL;
  DELETE FROM spend_by_day;
  INSERT INTO spend_by_day (day, workflow_id, micros)
    SELECT CAST(strftime('%s', day) AS INTEGER) / 86400, workflow_id, CAST(ROUND(sum(cost) * 1000000) AS INTEGER)
    FROM stat_costs GROUP BY 1, 2 HAVING CAST(ROUND(sum(cost) * 1000000) AS INTEGER) <> 0;
  UPDATE runs SET spend_day = (
    SELECT min(e.at / ${DAY_MS}) FROM events e WHERE e.run_id = runs.id AND e.type IN (${ENDS_SQL}) AND json_extract(e.data, '$.meta.cost.amount') IS NOT NULL
  ) WHERE kind = 'run' AND id NOT IN (SELECT run_id FROM run_metrics);
`;

/** A run's cost entries (its rollup's) summed per UTC day number, in millionths: what spend_by_day holds of it. */
export function spendByDay(entries: readonly CostEntry[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const e of entries) {
    const day = Math.floor(Date.parse(`${e.day}T00:00:00Z`) / DAY_MS);
    out.set(day, (out.get(day) ?? 0) + toMicros(e.total));
  }
  return out;
}

/** What was spent on one day: by the workflow asked about, and by the whole workspace (the store). */
export interface DaySpent {
  workflow: number;
  workspace: number;
}

/** A run's row: its workflow and its mark (the first day it spent on while not finished, or null); null for a run that does not count (a replay) or has no row. */
type RunSpendRow = { workflowId: string; day: number | null } | null;

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
   * What the rows of runs seen lately hold (workflow, mark), as of `rowsVersion`: this
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
          SELECT workflow_id, micros FROM spend_by_day WHERE day = @day
          UNION ALL
          SELECT r.workflow_id, ${MICROS_SQL} FROM runs r JOIN events e ON e.run_id = r.id
          WHERE r.spend_day <= @day AND e.type IN (${ENDS_SQL}) AND e.at >= @day * ${DAY_MS} AND e.at < (@day + 1) * ${DAY_MS}
            AND json_extract(e.data, '$.meta.cost.amount') IS NOT NULL
        ) GROUP BY workflow_id`).raw().all({ day }) as [string, number][];
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
   * Keeps the batch's costs, inside the commit: a run's first cost while it is not finished marks
   * its row, and a run the batch finishes loses its mark (its rollup, written just before, has
   * added its spend to spend_by_day). A cost of a run already marked writes nothing. Returns what
   * the batch spent, per day and workflow, for the day kept.
   */
  private afterWrite(events: readonly RunEvent[]): SpendAdded[] {
    let costs: Map<string, SpendAdded[]> | undefined;
    let finished: Set<string> | undefined;
    for (const e of events) {
      if (e.type === 'run_created') {
        // A run this batch creates: its row (written by the projection just before) has no mark.
        if (this.rows.size >= ROW_CACHE) this.rows.clear();
        this.rows.set(e.runId, { workflowId: e.data.workflowId, day: null });
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
      const item = { day: Math.floor(e.at / DAY_MS), workflowId: '', micros: toMicros(amount) };
      const list = costs.get(e.runId);
      if (list === undefined) costs.set(e.runId, [item]);
      else list.push(item);
    }
    if ((costs === undefined && finished === undefined) || !this.kept()) return [];
    this.checkRows();
    const spent: SpendAdded[] = [];
    for (const runId of new Set([...(costs?.keys() ?? []), ...(finished ?? [])])) {
      const row = this.rowOf(runId);
      if (row === null) continue;
      let day = row.day;
      for (const x of costs?.get(runId) ?? []) {
        spent.push({ ...x, workflowId: row.workflowId });
        if (day === null || x.day < day) day = x.day;
      }
      if (finished?.has(runId)) day = null;
      this.mark(runId, row, day);
    }
    return spent;
  }

  /**
   * A finished run runs again (its rollup, and so its settled spend, just went): it is marked from
   * the first day its cost entries name, so what it spent counts again from its events.
   */
  unsettled(runId: string, metrics: RunMetrics): void {
    if (!this.kept() || metrics.cost === undefined) return;
    this.checkRows();
    const row = this.rowOf(runId);
    if (row === null) return;
    const days = [...spendByDay(metrics.cost.entries).keys()];
    if (days.length > 0) this.mark(runId, row, Math.min(...days, row.day ?? Number.POSITIVE_INFINITY));
  }

  private mark(runId: string, row: NonNullable<RunSpendRow>, day: number | null): void {
    if (day === row.day) return;
    // The partial index changes only here: once when a run starts spending, once when it finishes.
    this.work.stmt('UPDATE runs SET spend_day = ? WHERE id = ?').run(day, runId);
    row.day = day;
  }

  /** Forgets the rows kept when another connection has committed since (a run it acted on may have changed). */
  private checkRows(): void {
    const version = this.work.stmt('PRAGMA data_version').pluck().get() as number;
    if (version === this.rowsVersion) return;
    this.rows.clear();
    this.rowsVersion = version;
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
    const found = this.work.stmt("SELECT workflow_id, spend_day FROM runs WHERE id = ? AND kind = 'run'").raw().get(runId) as [string, number | null] | undefined;
    if (found === undefined) return null; // not kept: a row written later is read then
    const row = { workflowId: found[0], day: found[1] };
    if (this.rows.size >= ROW_CACHE) this.rows.clear();
    this.rows.set(runId, row);
    return row;
  }

}
