// Cost across runs (docs/metrics.md, "Cost"): the figures of weft stats and GET /api/stats
// worked out by hand for two runs of test/engine/rebill-flow.ts over two UTC days, the same from
// the rollups (workflowReport, servedWorkflowReport) as from a fold of every log, and migration
// 14 over a store of schema 13 whose rollups carry no cost.
// The working is in test/engine/cost-history.ts.
import { SCHEMA_VERSION } from '../../engine/store/migrations.ts';
import { describe, expect, it } from 'vitest';
import { scannedWorkflowReport, workflowReport } from '../../engine/metrics/stats.ts';
import { servedWorkflowReport } from '../../engine/metrics/served-report.ts';
import { openDatabase } from '../../engine/store/open-database.ts';
import { Store } from '../../engine/store/store.ts';
import { costedStore, expected } from './cost-history.ts';

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

  it('migration 14 gives the rollups of a store of schema 13 their cost', async () => {
    const dbPath = await costedStore();
    // As a store of schema 13 would be: no cost table, and rollups folded before runs had a cost.
    const old = openDatabase(dbPath);
    old.exec("DROP TABLE stat_costs; DROP TABLE spend_by_day; DROP TABLE policies; DROP INDEX runs_spending; ALTER TABLE runs DROP COLUMN spend_day; UPDATE run_metrics SET metrics = json_remove(metrics, '$.cost'); PRAGMA user_version = 13");
    expect(old.prepare("SELECT count(*) FROM run_metrics WHERE json_extract(metrics, '$.cost') IS NOT NULL").pluck().get()).toBe(0);
    old.close();
    const db = openDatabase(dbPath, { mode: 'write' });
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(db.prepare('SELECT count(*) FROM stat_costs').pluck().get()).toBe(6);
      expectAllAgree(new Store(db));
    } finally {
      db.close();
    }
  });
});
