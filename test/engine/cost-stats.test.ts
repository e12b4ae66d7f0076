// Cost across runs (docs/metrics.md, "Cost"): the figures of weft stats and GET /api/stats
// worked out by hand for two runs of test/engine/rebill-flow.ts over two UTC days, the same from
// the rollups (workflowReport, servedWorkflowReport) as from a fold of every log, and migration
// 14 over a store of schema 13 whose rollups carry no cost.
//
// The working: run A (2026-01-01 00:00) bills draft $0.012 (1200 in, 300 out tokens) and check
// $0.003, which fails; an operator retries check on 2026-01-02 (02:00): $0.003, then polish uses
// 500 + 50 tokens with no price, and A succeeds. Run B (01:00 on the 1st) bills draft $0.012 and
// check $0.003 and fails. Total $0.033; per successful run (A) $0.018; all spend per success
// $0.033. Per day: the 1st $0.030 (4 attempts, 2400 + 600 tokens), the 2nd $0.003 (2 attempts,
// 500 + 50). Steps: draft $0.024, check $0.009, polish $0 (550 tokens).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../engine/scenario/run-scenario.ts';
import { scannedWorkflowReport, workflowReport } from '../../engine/metrics/stats.ts';
import { servedWorkflowReport } from '../../engine/metrics/served-report.ts';
import { openDatabase } from '../../engine/store/open-database.ts';
import { Store } from '../../engine/store/store.ts';
import { ScenarioFile, type Scenario } from '../../shared/scenario/scenario-schema.ts';
import { rebillFlow } from './rebill-flow.ts';

const HOUR = 3_600_000;
const asOf = Date.UTC(2027, 0, 1);

const scenario = ScenarioFile.parse({
  scenarios: [{
    name: 'two days of cost',
    input: { topic: 'fees' },
    steps: {
      draft: [{ succeed: { text: 'a draft' }, usage: { inputTokens: 1200, outputTokens: 300 }, cost: 0.012 }],
      check: [{ fail: 'too long', cost: 0.003 }, { succeed: { ok: true }, cost: 0.003 }],
      polish: [{ succeed: { text: 'polished' }, usage: { inputTokens: 500, outputTokens: 50 } }],
    },
    runs: [{ name: 'b', atMs: HOUR, input: { topic: 'rates' } }],
    operator: [{ atMs: 26 * HOUR, action: 'retry', step: 'check' }],
    expect: {},
  }],
}).scenarios[0] as Scenario;

const expected = {
  total: 0.033,
  currency: 'USD',
  inputTokens: 2900,
  outputTokens: 650,
  perSuccessfulRun: 0.018,
  perSuccess: 0.033,
  days: [
    { day: '2026-01-01', total: 0.03, inputTokens: 2400, outputTokens: 600, attempts: 4 },
    { day: '2026-01-02', total: 0.003, inputTokens: 500, outputTokens: 50, attempts: 2 },
  ],
  steps: [
    { stepId: 'draft', total: 0.024, inputTokens: 2400, outputTokens: 600, attempts: 2 },
    { stepId: 'check', total: 0.009, inputTokens: 0, outputTokens: 0, attempts: 3 },
    { stepId: 'polish', total: 0, inputTokens: 500, outputTokens: 50, attempts: 1 },
  ],
};

async function costedStore(): Promise<string> {
  const dbPath = join(mkdtempSync(join(tmpdir(), 'weft-cost-stats-')), 'weft.db');
  await runScenario(rebillFlow, scenario, { dbPath });
  return dbPath;
}

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
    old.exec("DROP TABLE stat_costs; UPDATE run_metrics SET metrics = json_remove(metrics, '$.cost'); PRAGMA user_version = 13");
    expect(old.prepare("SELECT count(*) FROM run_metrics WHERE json_extract(metrics, '$.cost') IS NOT NULL").pluck().get()).toBe(0);
    old.close();
    const db = openDatabase(dbPath, { mode: 'write' });
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(14);
      expect(db.prepare('SELECT count(*) FROM stat_costs').pluck().get()).toBe(6);
      expectAllAgree(new Store(db));
    } finally {
      db.close();
    }
  });
});
