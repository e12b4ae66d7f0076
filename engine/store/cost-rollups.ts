// Per-workflow cost rollups of finished runs (migration 14): what each step's attempts cost per
// UTC day, split by whether the run succeeded, so GET /api/stats reads a few rows per day and
// step instead of every run's rollup for the Insights page's cost over time, cost per successful
// run and most expensive steps (docs/metrics.md, "Cost"). Kept with the other per-workflow
// counters (workflow-rollups.ts): a run's cost entries (RunMetrics.cost) are added in the
// transaction that writes its `run_metrics` row and subtracted in the one that replaces or
// deletes it. Amounts are stored as REAL sums of amounts that are whole millionths; a reader
// rounds each row back to millionths with sumCost (engine/metrics/cost-metrics.ts).
import type { Statement } from 'better-sqlite3';
import type { RunMetrics } from '../../shared/api/workflow-stats.ts';
import type { CostEntry } from '../../shared/api/cost-stats.ts';
import type { Db } from './db.ts';
import { eachRollup } from './each-rollup.ts';
import { MultiRow } from './multi-row.ts';
import { spendByDay } from './day-spend.ts';

/** Migration 14's table. */
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

/** One step's cost on one day over the finished runs that succeeded (or did not). */
export interface CostRow extends CostEntry {
  succeeded: 0 | 1;
  currency: string;
}

export class CostRollups {
  private readonly statements = new Map<string, Statement>();
  private present: boolean | undefined;
  private upsert: MultiRow | undefined;
  private daysPresent: boolean | undefined;

  constructor(private readonly db: Db) {}

  private stmt(sql: string): Statement {
    let st = this.statements.get(sql);
    if (st === undefined) this.statements.set(sql, (st = this.db.prepare(sql)));
    return st;
  }

  /** Whether the store has the table (schema 14): earlier migrations' builds run without it. */
  kept(): boolean {
    this.present ??= this.db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'stat_costs'").pluck().get() === 1;
    return this.present;
  }

  /** Adds (1) or subtracts (-1) a finished run's cost entries: one statement for all its steps and days. */
  apply(m: RunMetrics, sign: 1 | -1): void {
    const cost = m.cost;
    if (cost === undefined || !this.kept()) return;
    const succeeded = m.state === 'succeeded' ? 1 : 0;
    this.upsert ??= new MultiRow(
      this.db,
      'INSERT INTO stat_costs VALUES',
      10,
      `ON CONFLICT DO UPDATE SET cost = cost + excluded.cost, input_tokens = input_tokens + excluded.input_tokens,
       output_tokens = output_tokens + excluded.output_tokens, attempts = attempts + excluded.attempts`,
    );
    this.upsert.run(cost.entries.map((e) => [m.workflowId, m.version, e.day, e.step, succeeded, cost.currency, sign * e.total, sign * e.inputTokens, sign * e.outputTokens, sign * e.attempts]));
    if (!this.daysKept()) return;
    // The run's spend per UTC day, settled for daily budgets (day-spend.ts): a finished run's is here, a running run's in its attempt events.
    const add = this.stmt('INSERT INTO spend_by_day (day, workflow_id, micros) VALUES (?, ?, ?) ON CONFLICT (day, workflow_id) DO UPDATE SET micros = micros + excluded.micros');
    for (const [day, micros] of spendByDay(cost.entries)) add.run(day, m.workflowId, sign * micros);
  }

  /** Whether the store has spend_by_day (schema 15). */
  private daysKept(): boolean {
    this.daysPresent ??= this.db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'spend_by_day'").pluck().get() === 1;
    return this.daysPresent;
  }

  /** The rows of a workflow (of one version if given), summed over versions; those left at zero are not read. */
  rows(workflowId: string, version?: number): CostRow[] {
    if (!this.kept()) return [];
    const head = `SELECT day, step_id AS step, succeeded, currency, sum(cost) AS total, sum(input_tokens) AS inputTokens, sum(output_tokens) AS outputTokens,
      sum(attempts) AS attempts FROM stat_costs WHERE workflow_id = ?`;
    const tail = 'GROUP BY day, step_id, succeeded, currency HAVING sum(attempts) <> 0 ORDER BY day, step_id';
    return (version === undefined ? this.stmt(`${head} ${tail}`).all(workflowId) : this.stmt(`${head} AND version = ? ${tail}`).all(workflowId, version)) as CostRow[];
  }
}

/**
 * Migration 14's build. First the runs already rolled up whose attempts recorded a cost or tokens
 * are folded again (`refresh`), so their rollups carry their cost (runs whose attempts recorded
 * neither have nothing to add and are not read); then the table is filled from every rollup that
 * carries one (a store upgraded from before migration 10 has them already, folded by its build).
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
  db.exec('DELETE FROM stat_costs');
  const costs = new CostRollups(db);
  eachRollup(db, "json_extract(metrics, '$.cost') IS NOT NULL", (m) => costs.apply(m, 1));
}
