// What each workflow spent per day (UTC, engine clock), for the daily budgets of a workspace
// policy (docs/budgets.md), in millionths of the currency's unit (as sumCost adds). It never
// disagrees with the log, and costs the commits that write attempt events nothing more:
// - a finished run's spend is in its cost rollup (cost-rollups.ts: stat_cost_days, one row per
//   day it spent on, and on SQLite the current day's bucket of its stat_runs row), added and
//   taken out with its rollup in the commit that finishes it or takes it back to running;
// - a run not finished is read from its attempt events, which the log holds anyway, found by the
//   state index of `runs` (the runs still going).
// Admission reads both, and keeps the answer between reads while no other connection commits,
// adding this store's own commits as they are written. Before schema 18, a run was marked on its
// row at its first cost (migration 17) and the finished runs' spend had a table of its own
// (migration 15): two more writes per run.
import { toMicros } from '../../shared/cost/attempt-cost.ts';
import type { RunEvent } from '../../shared/events/run-event.ts';
import { UNFINISHED_STATES_SQL } from './run-state-sql.ts';
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

/** What was spent on one day: by the workflow asked about, and by the whole workspace (the store). */
export interface DaySpent {
  workflow: number;
  workspace: number;
}

/** The workflow of a run the unit of work wrote, or null for one without a row (never kept). */
type RunWorkflow = string | null;

/** Runs whose workflow afterWrite keeps before it starts again. */
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
  /** data_version as read in this turn of the event loop (dataVersion). */
  private turnVersion: number | undefined;
  /** The workflow of runs seen lately: it never changes, and a run this store created is known from its run_created. */
  private readonly workflows = new Map<string, RunWorkflow>();

  /** Whether this connection is the store's only writer of runs (Store.useLease): then others' commits need no looking for. */
  private soleWriter: () => boolean = () => false;

  constructor(private readonly work: UnitOfWork) {}

  /**
   * While `held()` is true, no other connection writes the runs' events or rollups (this process
   * holds the engine lease and schedules the store), so the cached spend is not checked against
   * data_version: only this store's own commits, which it adds as it writes them, change it.
   */
  useSoleWriter(held: () => boolean): void {
    this.soleWriter = held;
  }

  /**
   * What was spent on `day` (a UTC day number, Math.floor(ms / DAY_MS)), as of the last commit:
   * the finished runs' rows of the day (a probe per workflow version that has finished runs, and the buckets of stat_runs) and the day's attempt events
   * of the runs still going (by the state index).
   *
   * @example store.spend.on(Math.floor(clock.now() / DAY_MS), 'order-flow') // { workflow: 1.2, workspace: 4.75 }
   */
  on(day: number, workflowId: string): DaySpent {
    let c = this.cached;
    const version = c !== undefined && this.soleWriter() ? c.version : this.dataVersion();
    if (c === undefined || c.day !== day || c.version !== version) {
      const rows = this.work.stmt(`
        SELECT workflow_id, sum(micros) FROM (
          SELECT c.workflow_id, c.micros FROM (SELECT DISTINCT workflow_id, version FROM stat_runs) v CROSS JOIN stat_cost_days c
          WHERE c.workflow_id = v.workflow_id AND c.version = v.version AND c.day = @day
          UNION ALL
          SELECT workflow_id, cost_micros FROM stat_runs WHERE cost_day = @day
          UNION ALL
          SELECT r.workflow_id, ${MICROS_SQL} FROM runs r INDEXED BY runs_by_state CROSS JOIN events e
          WHERE r.state IN (${UNFINISHED_STATES_SQL}) AND r.kind = 'run' AND e.run_id = r.id AND e.type IN (${ENDS_SQL})
            AND e.at >= @day * ${DAY_MS} AND e.at < (@day + 1) * ${DAY_MS} AND json_extract(e.data, '$.meta.cost.amount') IS NOT NULL
        ) GROUP BY workflow_id`).raw().all({ day }) as [string, number][];
      this.cached = c = { day, version, micros: new Map(rows) };
    }
    let workspace = 0;
    for (const micros of c.micros.values()) workspace += micros;
    return { workflow: (c.micros.get(workflowId) ?? 0) / 1_000_000, workspace: workspace / 1_000_000 };
  }

  /**
   * SQLite's data_version, read once per turn of the event loop: the starts of one turn (a burst
   * of 200 runs started at once) are admitted against the same state, as if at the same moment;
   * the next turn reads it again. A read costs a read transaction's locks (about 10 µs).
   */
  private dataVersion(): number {
    if (this.turnVersion !== undefined) return this.turnVersion;
    const version = this.work.stmt('PRAGMA data_version').pluck().get() as number;
    this.turnVersion = version;
    queueMicrotask(() => {
      this.turnVersion = undefined;
    });
    return version;
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
        added = this.spent(events);
      },
      // Nothing was written: a run the batch would have created is not known.
      failed: () => {
        this.workflows.clear();
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
   * What the batch spent, per day and workflow, for the day kept: its attempts' costs. A run it
   * finishes (or takes back to running) moves its spend between its events and its rollup in the
   * same commit, which changes no day's total.
   */
  private spent(events: readonly RunEvent[]): SpendAdded[] {
    const spent: SpendAdded[] = [];
    for (const e of events) {
      if (e.type === 'run_created') {
        if (this.workflows.size >= ROW_CACHE) this.workflows.clear();
        this.workflows.set(e.runId, e.data.workflowId);
        continue;
      }
      if (e.type !== 'attempt_succeeded' && e.type !== 'attempt_failed' && e.type !== 'attempt_unknown') continue;
      const amount = e.data.meta?.cost?.amount;
      if (amount === undefined || amount === 0) continue;
      const workflowId = this.workflowOf(e.runId);
      if (workflowId !== null) spent.push({ day: Math.floor(e.at / DAY_MS), workflowId, micros: toMicros(amount) });
    }
    return spent;
  }

  /** The run's workflow, read from its row when not known (a run recovered from the log); null without a row. */
  private workflowOf(runId: string): RunWorkflow {
    const known = this.workflows.get(runId);
    if (known !== undefined) return known;
    const found = this.work.stmt("SELECT workflow_id FROM runs WHERE id = ? AND kind = 'run'").pluck().get(runId) as string | undefined;
    if (found === undefined) return null; // not kept: a row written later is read then
    if (this.workflows.size >= ROW_CACHE) this.workflows.clear();
    this.workflows.set(runId, found);
    return found;
  }
}
