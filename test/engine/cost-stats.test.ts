// Cost across runs (docs/metrics.md, "Cost"): the figures of weft stats and GET /api/stats
// worked out by hand for two runs of test/engine/rebill-flow.ts over two UTC days, the same from
// the rollups (workflowReport, servedWorkflowReport) as from a fold of every log, and migrations
// 14 and 18 over a store of schema 13 whose rollups carry no cost.
// The working is in test/engine/cost-history.ts.
import { SCHEMA_VERSION } from '../../engine/store/migrations.ts';
import { describe, expect, it } from 'vitest';
import { scannedWorkflowReport, workflowReport } from '../../engine/metrics/stats.ts';
import { servedWorkflowReport } from '../../engine/metrics/served-report.ts';
import { openDatabase } from '../../engine/store/open-database.ts';
import { Store } from '../../engine/store/store.ts';
import { costedStore, expected } from './cost-history.ts';
import { DROP_COST_BUCKET_SQL } from '../kept-cost-days.ts';

const asOf = Date.UTC(2027, 0, 1);

function expectAllAgree(store: Store): void {
  const scanned = scannedWorkflowReport(store, 'billed', { asOf });
  expect(scanned.stats.states).toMatchObject({ succeeded: 1, failed: 1 });
  expect(scanned.stats.cost).toEqual(expected);
  expect(workflowReport(store, 'billed', { asOf }).stats.cost).toEqual(expected);
  expect(servedWorkflowReport(store, 'billed', { asOf, runs: 1 }).stats).toEqual(scanned.stats);
  // A run's own cost, per step and day.
  const a = scanned.runs.find((r) => r.state === 'succeeded');
  expect(a?.cost).toEqual({
    total: 0.018,
    currency: 'USD',
    inputTokens: 1700,
    outputTokens: 350,
    entries: [
      { step: 'draft', day: '2026-01-01', total: 0.012, inputTokens: 1200, outputTokens: 300, attempts: 1 },
      { step: 'check', day: '2026-01-01', total: 0.003, inputTokens: 0, outputTokens: 0, attempts: 1 },
      { step: 'check', day: '2026-01-02', total: 0.003, inputTokens: 0, outputTokens: 0, attempts: 1 },
      { step: 'polish', day: '2026-01-02', total: 0, inputTokens: 500, outputTokens: 50, attempts: 1 },
    ],
  });
}

describe('cost across runs', () => {
  it('totals, per successful run, per UTC day and the most expensive steps, from the rollups as from every log', async () => {
    const db = openDatabase(await costedStore());
    try {
      expectAllAgree(new Store(db));
      // The version filter reads the same rows.
      expect(workflowReport(new Store(db), 'billed', { asOf, version: 1 }).stats.cost).toEqual(expected);
    } finally {
      db.close();
    }
  });

  it('migrations 14 and 18 give the rollups of a store of schema 13 their cost, and the cost rollups their rows', async () => {
    const dbPath = await costedStore();
    // As a store of schema 13 would be: no cost table, and rollups folded before runs had a cost.
    const old = openDatabase(dbPath);
    old.exec(`DROP TABLE stat_cost_days; ${DROP_COST_BUCKET_SQL} ${['cost_micros', 'input_tokens', 'output_tokens', 'cost_attempts'].map((c) => `ALTER TABLE stat_steps DROP COLUMN ${c};`).join(' ')}
      DROP TABLE policies; UPDATE run_metrics SET metrics = json_remove(metrics, '$.cost'); PRAGMA user_version = 13`);
    expect(old.prepare("SELECT count(*) FROM run_metrics WHERE json_extract(metrics, '$.cost') IS NOT NULL").pluck().get()).toBe(0);
    old.close();
    const db = openDatabase(dbPath, { mode: 'write' });
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      // Migration 18 makes the cost rows from those rollups: one per day and run outcome (A succeeded on both days, B failed on the 1st), the steps' in their rows.
      const day = Date.UTC(2026, 0, 1) / 86_400_000;
      expect(db.prepare('SELECT day, succeeded, currency, micros, input_tokens, output_tokens, attempts FROM stat_cost_days ORDER BY day, succeeded').raw().all()).toEqual([
        [day, 0, 'USD', 15_000, 1200, 300, 2],
        [day, 1, 'USD', 15_000, 1200, 300, 2],
        [day + 1, 1, 'USD', 3_000, 500, 50, 2],
      ]);
      expect(db.prepare('SELECT step_id, sum(cost_micros), sum(input_tokens), sum(output_tokens), sum(cost_attempts) FROM stat_steps GROUP BY step_id HAVING sum(cost_attempts) > 0 ORDER BY step_id').raw().all()).toEqual([
        ['check', 9_000, 0, 0, 3],
        ['draft', 24_000, 2400, 600, 2],
        ['polish', 0, 500, 50, 1],
      ]);
      expectAllAgree(new Store(db));
    } finally {
      db.close();
    }
  });
});
