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
// On SQLite (schema 20), the day a run last spent on goes in the "current day" columns of the
// stat_runs row its counters write anyway (the bucket), not in a stat_cost_days row: a page fewer
// per finishing commit. The bucket moves to stat_cost_days when a run of a later day (or another
// currency) finishes; a day's spend is the sum of both. On PostgreSQL every day goes to
// stat_cost_days, as before: several workers would race to move one bucket.
import type { Statement } from './db.ts';
import type { RunMetrics } from '../../shared/api/workflow-stats.ts';
import { toMicros } from '../../shared/cost/attempt-cost.ts';
import type { Db } from './db.ts';
import { eachRollup } from './each-rollup.ts';
import { MultiRow } from './multi-row.ts';
import { DAY_MS } from './day-spend.ts';
import { isPgDb } from './pg/read-snapshot.ts';

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

/**
 * Migration 20: the bucket of a stat_runs row, the cost of its finished runs on one UTC day
 * (`cost_day`, null while none) in one currency, not yet moved to stat_cost_days.
 */
export const COST_BUCKET_SQL = `
  ALTER TABLE stat_runs ADD COLUMN cost_day INTEGER;
  ALTER TABLE stat_runs ADD COLUMN cost_currency TEXT;
  ALTER TABLE stat_runs ADD COLUMN cost_micros INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE stat_runs ADD COLUMN cost_input_tokens INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE stat_runs ADD COLUMN cost_output_tokens INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE stat_runs ADD COLUMN cost_attempts INTEGER NOT NULL DEFAULT 0;
`;

/** The bucket columns of stat_runs, in order. */
export const BUCKET_COLUMNS = ['cost_day', 'cost_currency', 'cost_micros', 'cost_input_tokens', 'cost_output_tokens', 'cost_attempts'] as const;

/**
 * What a finishing commit does to its stat_runs row's bucket: adds the run's cost of the bucket's
 * day to it (`add`), or makes it the run's last day after moving what it held (`set`); `values`
 * are the bucket columns' (BUCKET_COLUMNS).
 */
export interface BucketWrite {
  mode: 'add' | 'set';
  values: [day: number, currency: string, ...counts: CostCounts];
}

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
  private bucketColumns: boolean | undefined;
  private bucketWrites: boolean | undefined;
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

  /** Whether stat_runs has the bucket columns (schema 20; a PostgreSQL store has them from its baseline). */
  private hasBucket(): boolean {
    this.bucketColumns ??= isPgDb(this.db) || this.db.prepare("SELECT count(*) FROM pragma_table_info('stat_runs') WHERE name = 'cost_day'").pluck().get() === 1;
    return this.bucketColumns;
  }

  /** Whether finishing runs write the bucket: on SQLite at schema 20 (PostgreSQL's readers add it, its writers leave it). */
  private writesBucket(): boolean {
    this.bucketWrites ??= this.hasBucket() && !isPgDb(this.db);
    return this.bucketWrites;
  }

  /**
   * Adds (1) or subtracts (-1) a finished run's cost per day (its steps' are written with their
   * counters). On SQLite the last day it spent on goes to the bucket of its stat_runs row, whose
   * write the caller makes (the BucketWrite returned); every other day is a stat_cost_days row.
   */
  apply(m: RunMetrics, sign: 1 | -1): BucketWrite | undefined {
    const cost = m.cost;
    if (cost === undefined || !this.kept()) return undefined;
    const succeeded = m.state === 'succeeded' ? 1 : 0;
    const rows: unknown[][] = [];
    const days = new Map<number, CostCounts>();
    for (const [day, c] of summed(m, (e) => e.day)) days.set(dayNumber(day), [sign * c[0], sign * c[1], sign * c[2], sign * c[3]]);
    const bucket = this.bucketed(m, cost.currency, days, sign, rows);
    for (const [day, c] of days) rows.push([m.workflowId, m.version, day, succeeded, cost.currency, ...c]);
    this.upsert ??= new MultiRow(
      this.db,
      'INSERT INTO stat_cost_days VALUES',
      9,
      `ON CONFLICT DO UPDATE SET micros = micros + excluded.micros, input_tokens = input_tokens + excluded.input_tokens,
       output_tokens = output_tokens + excluded.output_tokens, attempts = attempts + excluded.attempts`,
    );
    this.upsert.run(rows);
    return bucket;
  }

  /**
   * The part of `days` that goes to the run's bucket, taken out of `days`: its last day, when the
   * bucket holds that day in that currency; or, adding, when the bucket is empty or holds an
   * earlier day (or another currency), whose row is then pushed to `rows` to move it to
   * stat_cost_days. A subtraction goes to the bucket only in the first case: it never moves one.
   */
  private bucketed(m: RunMetrics, currency: string, days: Map<number, CostCounts>, sign: 1 | -1, rows: unknown[][]): BucketWrite | undefined {
    if (days.size === 0 || !this.writesBucket()) return undefined;
    const last = Math.max(...days.keys());
    const counts = days.get(last) as CostCounts;
    const held = this.stmt('SELECT cost_day, cost_currency, cost_micros, cost_input_tokens, cost_output_tokens, cost_attempts FROM stat_runs WHERE workflow_id = ? AND version = ? AND state = ?')
      .raw()
      .get(m.workflowId, m.version, m.state) as [number | null, string | null, ...CostCounts] | undefined;
    const empty = held === undefined || held[0] === null || (held[2] === 0 && held[3] === 0 && held[4] === 0 && held[5] === 0);
    let mode: BucketWrite['mode'];
    if (!empty && held[0] === last && held[1] === currency) mode = 'add';
    else if (sign === -1) return undefined;
    else if (empty) mode = 'set';
    else if ((held[0] as number) <= last) {
      rows.push([m.workflowId, m.version, held[0], m.state === 'succeeded' ? 1 : 0, held[1], held[2], held[3], held[4], held[5]]);
      mode = 'set';
    } else return undefined;
    days.delete(last);
    return { mode, values: [last, currency, ...counts] };
  }

  /** A workflow's days (of one version if given), summed over versions, oldest first, buckets with the rest; those left at zero are not read. */
  days(workflowId: string, version?: number): CostDayRow[] {
    if (!this.kept()) return [];
    const of = version === undefined ? '' : 'AND version = ?';
    const buckets = this.hasBucket()
      ? `UNION ALL SELECT cost_day, CASE WHEN state = 'succeeded' THEN 1 ELSE 0 END, cost_currency, cost_micros, cost_input_tokens, cost_output_tokens, cost_attempts
         FROM stat_runs WHERE workflow_id = ? ${of} AND cost_day IS NOT NULL`
      : '';
    const sql = `SELECT day, succeeded, currency, sum(micros) AS micros, sum(input_tokens) AS inputTokens, sum(output_tokens) AS outputTokens, sum(attempts) AS attempts
      FROM (SELECT day, succeeded, currency, micros, input_tokens, output_tokens, attempts FROM stat_cost_days WHERE workflow_id = ? ${of} ${buckets}) AS c
      GROUP BY day, succeeded, currency HAVING sum(attempts) <> 0 ORDER BY day, succeeded, currency`;
    const args = version === undefined ? [workflowId] : [workflowId, version];
    return this.stmt(sql).all(...args, ...(buckets === '' ? [] : args)) as CostDayRow[];
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
