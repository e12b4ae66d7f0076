// Per-workflow cost rollups of finished runs: what their attempts cost per UTC day (migration 18's
// stat_cost_days, split by whether the run succeeded) and per step (four columns of stat_steps),
// so GET /api/stats reads a few rows per day and step for the Insights page's cost over time, cost
// per successful run and most expensive steps (docs/metrics.md, "Cost"), and admission reads a
// day's settled spend (day-spend.ts). Kept with the other per-workflow counters
// (workflow-rollups.ts): a run's cost (RunMetrics.cost) is added in the transaction that writes
// its `run_metrics` row and subtracted in the one that replaces or deletes it. Amounts are whole
// millionths of the currency's unit (toMicros), so sums are exact.
//
// A finished run adds one row per day it spent on, and nothing but columns to the step rows its
// counters write anyway: migration 14's table of one row per step and day, and migration 15's
// per-day spend, were 10 more rows for a 10-step run (docs/policies.md, "What it costs the engine").
import type { Statement } from './db.ts';
import type { RunMetrics } from '../../shared/api/workflow-stats.ts';
import { toMicros } from '../../shared/cost/attempt-cost.ts';
import type { Db } from './db.ts';
import { eachRollup } from './each-rollup.ts';
import { MultiRow } from './multi-row.ts';
import { DAY_MS } from './day-spend.ts';

/** Migration 14's table (dropped by migration 18). */
export const COST_ROLLUPS_SQL = `
  CREATE TABLE stat_costs (
    workflow_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    day TEXT NOT NULL,
    step_id TEXT NOT NULL,
    succeeded INTEGER NOT NULL,
    currency TEXT NOT NULL,
    cost REAL NOT NULL,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    attempts INTEGER NOT NULL,
    PRIMARY KEY (workflow_id, version, day, step_id, succeeded, currency)
  ) WITHOUT ROWID;
`;

/**
 * Migration 18: cost per day in stat_cost_days (`day` a UTC day number), cost per step in
 * stat_steps; migration 14's and 15's tables and migration 17's mark go. The build fills them
 * from the rollups (buildCostDays).
 */
export const COST_DAYS_SQL = `
  CREATE TABLE stat_cost_days (
    workflow_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    day INTEGER NOT NULL,
    succeeded INTEGER NOT NULL,
    currency TEXT NOT NULL,
    micros INTEGER NOT NULL,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    attempts INTEGER NOT NULL,
    PRIMARY KEY (workflow_id, version, day, succeeded, currency)
  ) WITHOUT ROWID;
  ALTER TABLE stat_steps ADD COLUMN cost_micros INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE stat_steps ADD COLUMN input_tokens INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE stat_steps ADD COLUMN output_tokens INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE stat_steps ADD COLUMN cost_attempts INTEGER NOT NULL DEFAULT 0;
  DROP TABLE stat_costs;
  DROP TABLE spend_by_day;
  DROP INDEX runs_spending;
  ALTER TABLE runs DROP COLUMN spend_day;
`;

/** What attempts that recorded a cost or tokens add up to: micros, input and output tokens, attempts. */
export type CostCounts = [micros: number, inputTokens: number, outputTokens: number, attempts: number];

/** One UTC day's cost of a workflow's finished runs that succeeded (or did not), in `currency`. */
export interface CostDayRow {
  /** UTC day number: floor(ms / DAY_MS). */
  day: number;
  succeeded: 0 | 1;
  currency: string;
  micros: number;
  inputTokens: number;
  outputTokens: number;
  attempts: number;
}

/** One step's cost over a workflow's finished runs. */
export interface StepCostRow {
  stepId: string;
  micros: number;
  inputTokens: number;
  outputTokens: number;
  attempts: number;
}

/** The last day dayNumber read (its words and number): a run's attempts mostly end on one day. */
let lastDay: [string, number] = ['', 0];

/** A day's number from a cost entry's `YYYY-MM-DD`. */
function dayNumber(day: string): number {
  if (day !== lastDay[0]) lastDay = [day, Math.floor(Date.parse(`${day}T00:00:00Z`) / DAY_MS)];
  return lastDay[1];
}

/** A run's cost entries summed per `key` of each entry. */
function summed(m: RunMetrics, key: (e: { step: string; day: string }) => string): Map<string, CostCounts> {
  const out = new Map<string, CostCounts>();
  for (const e of m.cost?.entries ?? []) {
    const k = key(e);
    const c = out.get(k);
    if (c === undefined) out.set(k, [toMicros(e.total), e.inputTokens, e.outputTokens, e.attempts]);
    else {
      c[0] += toMicros(e.total);
      c[1] += e.inputTokens;
      c[2] += e.outputTokens;
      c[3] += e.attempts;
    }
  }
  return out;
}

/** A finished run's cost per step, for its stat_steps rows (workflow-rollups.ts). */
export const stepCosts = (m: RunMetrics): Map<string, CostCounts> => summed(m, (e) => e.step);

export class CostRollups {
  private readonly statements = new Map<string, Statement>();
  private present: boolean | undefined;
  private upsert: MultiRow | undefined;

  constructor(private readonly db: Db) {}

  private stmt(sql: string): Statement {
    let st = this.statements.get(sql);
    if (st === undefined) this.statements.set(sql, (st = this.db.prepare(sql)));
    return st;
  }

  /** Whether the store keeps cost this way (schema 18): earlier migrations' builds run without it. */
  kept(): boolean {
    this.present ??= this.db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'stat_cost_days'").pluck().get() === 1;
    return this.present;
  }

  /** Adds (1) or subtracts (-1) a finished run's cost per day: one row per day it spent on (its steps' are written with their counters). */
  apply(m: RunMetrics, sign: 1 | -1): void {
    const cost = m.cost;
    if (cost === undefined || !this.kept()) return;
    const succeeded = m.state === 'succeeded' ? 1 : 0;
    this.upsert ??= new MultiRow(
      this.db,
      'INSERT INTO stat_cost_days VALUES',
      9,
      `ON CONFLICT DO UPDATE SET micros = micros + excluded.micros, input_tokens = input_tokens + excluded.input_tokens,
       output_tokens = output_tokens + excluded.output_tokens, attempts = attempts + excluded.attempts`,
    );
    const rows: unknown[][] = [];
    for (const [day, c] of summed(m, (e) => e.day)) rows.push([m.workflowId, m.version, dayNumber(day), succeeded, cost.currency, sign * c[0], sign * c[1], sign * c[2], sign * c[3]]);
    this.upsert.run(rows);
  }

  /** A workflow's days (of one version if given), summed over versions, oldest first; those left at zero are not read. */
  days(workflowId: string, version?: number): CostDayRow[] {
    if (!this.kept()) return [];
    const head = `SELECT day, succeeded, currency, sum(micros) AS micros, sum(input_tokens) AS inputTokens, sum(output_tokens) AS outputTokens,
      sum(attempts) AS attempts FROM stat_cost_days WHERE workflow_id = ?`;
    const tail = 'GROUP BY day, succeeded, currency HAVING sum(attempts) <> 0 ORDER BY day, succeeded, currency';
    return (version === undefined ? this.stmt(`${head} ${tail}`).all(workflowId) : this.stmt(`${head} AND version = ? ${tail}`).all(workflowId, version)) as CostDayRow[];
  }

  /** A workflow's steps' cost (of one version if given), summed over versions and outcomes; steps without any are not read. */
  steps(workflowId: string, version?: number): StepCostRow[] {
    if (!this.kept()) return [];
    const head = `SELECT step_id AS stepId, sum(cost_micros) AS micros, sum(input_tokens) AS inputTokens, sum(output_tokens) AS outputTokens,
      sum(cost_attempts) AS attempts FROM stat_steps WHERE workflow_id = ?`;
    const tail = 'GROUP BY step_id HAVING sum(cost_attempts) <> 0 ORDER BY step_id';
    return (version === undefined ? this.stmt(`${head} ${tail}`).all(workflowId) : this.stmt(`${head} AND version = ? ${tail}`).all(workflowId, version)) as StepCostRow[];
  }
}

/**
 * Migration 14's build: the runs already rolled up whose attempts recorded a cost or tokens are
 * folded again (`refresh`), so their rollups carry their cost (runs whose attempts recorded
 * neither have nothing to add and are not read). Migration 18 makes the cost tables from them.
 */
export function buildCostRollups(db: Db, refresh: (runId: string) => void): void {
  const costed = db
    .prepare(
      `SELECT DISTINCT e.run_id FROM events e JOIN run_metrics m ON m.run_id = e.run_id
       WHERE e.type IN ('attempt_succeeded', 'attempt_failed', 'attempt_unknown') AND e.data LIKE '%"meta"%'
       AND (json_extract(e.data, '$.meta.usage') IS NOT NULL OR json_extract(e.data, '$.meta.cost') IS NOT NULL)`,
    )
    .pluck()
    .all() as string[];
  for (const id of costed) refresh(id);
}

/**
 * Migration 18's build: every rollup that carries a cost adds its days to stat_cost_days and its
 * steps' cost to their stat_steps rows (the row of the outcome its counters went to).
 */
export function buildCostDays(db: Db): void {
  const costs = new CostRollups(db);
  const stepRows = db.prepare(
    `INSERT INTO stat_steps VALUES (?, ?, ?, ?, 0, 0, 0, 0, 0, 0, 0, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET cost_micros = cost_micros + excluded.cost_micros,
     input_tokens = input_tokens + excluded.input_tokens, output_tokens = output_tokens + excluded.output_tokens, cost_attempts = cost_attempts + excluded.cost_attempts`,
  );
  eachRollup(db, "json_extract(metrics, '$.cost') IS NOT NULL", (m) => {
    costs.apply(m, 1);
    for (const [step, c] of stepCosts(m)) stepRows.run(m.workflowId, m.version, step, m.steps[step]?.outcome ?? '', ...c);
  });
}
