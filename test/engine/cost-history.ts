// Two runs of test/engine/rebill-flow.ts over two UTC days, with scripted costs, and the cost
// figures they give, worked out by hand: what test/engine/cost-stats.test.ts and the CLI's test
// (test/cli/stats-cost-cli.test.ts) check weft stats against.
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
import { runScenario } from '../../engine/scenario/run-scenario.ts';
import { ScenarioFile, type Scenario } from '../../shared/scenario/scenario-schema.ts';
import { rebillFlow } from './rebill-flow.ts';

const HOUR = 3_600_000;

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

export const expected = {
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

/** A store with the scenario's two runs; what test/cli/stats-cost-cli.test.ts reads too. */
export async function costedStore(): Promise<string> {
  const dbPath = join(mkdtempSync(join(tmpdir(), 'weft-cost-stats-')), 'weft.db');
  await runScenario(rebillFlow, scenario, { dbPath });
  return dbPath;
}
