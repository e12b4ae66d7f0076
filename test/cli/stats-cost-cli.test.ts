// `weft stats` shows what runs cost (docs/metrics.md, "Cost") through the real binary: the text's
// cost lines, per UTC day and per step, and --json's `stats.cost`, parsed with the report's schema,
// for the two runs worked out by hand in test/engine/cost-history.ts.
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkflowReport } from '../../shared/api/workflow-stats.ts';
import { CostSummary } from '../../shared/api/cost-stats.ts';
import { costedStore, expected } from '../engine/cost-history.ts';
import { runWeft } from './run-weft.ts';

describe('weft stats: cost', () => {
  it('prints the cost per UTC day and per step, and --json carries stats.cost', async () => {
    const db = await costedStore();
    const text = await runWeft(['stats', 'billed', '--db', db], dirname(db));
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    const lines = text.stdout.split('\n');
    expect(lines).toContain('cost $0.033 · 2,900 in, 650 out tokens · per successful run $0.018 · all spend per success $0.033');
    const day = lines.indexOf(lines.find((l) => l.startsWith('day (UTC)')) ?? '');
    expect(lines.slice(day, day + 3).map((l) => l.split(/\s{2,}/))).toEqual([
      ['day (UTC)', 'cost', 'attempts', 'tokens in', 'tokens out'],
      ['2026-01-01', '$0.03', '4', '2,400', '600'],
      ['2026-01-02', '$0.003', '2', '500', '50'],
    ]);
    const step = lines.indexOf(lines.find((l) => l.startsWith('step  ') && l.includes('share')) ?? '');
    expect(lines.slice(step + 1, step + 4).map((l) => l.split(/\s{2,}/))).toEqual([
      ['draft', '$0.024', '72.7%', '2', '2,400', '600'],
      ['check', '$0.009', '27.3%', '3', '0', '0'],
      ['polish', '$0.00', '0%', '1', '500', '50'],
    ]);
    const json = await runWeft(['stats', 'billed', '--db', db, '--json'], dirname(db));
    expect(WorkflowReport.parse(JSON.parse(json.stdout)).stats.cost).toEqual(expected);
  });

  it('without a workflow prints what every workflow cost and each UTC day across them', async () => {
    const db = await costedStore();
    const text = await runWeft(['stats', '--db', db], dirname(db));
    expect(text.stderr).toBe('');
    expect(text.stdout.split('\n').map((l) => l.split(/\s{2,}/))).toEqual([
      ['cost of every workflow: $0.033'],
      [''],
      ['workflow', 'runs', 'cost', 'per successful run', 'tokens in', 'tokens out'],
      ['billed', '2', '$0.033', '$0.018', '2,900', '650'],
      [''],
      ['day (UTC)', 'cost', 'by workflow'],
      ['2026-01-01', '$0.03', 'billed $0.03'],
      ['2026-01-02', '$0.003', 'billed $0.003'],
      [''],
    ]);
    const json = CostSummary.parse(JSON.parse((await runWeft(['stats', '--db', db, '--json'], dirname(db))).stdout));
    expect(json.workflows).toEqual([{ workflowId: 'billed', runs: 2, cost: expected }]);
    expect(json.days.map((d) => [d.day, d.total, d.workflows])).toEqual([['2026-01-01', 0.03, { billed: 0.03 }], ['2026-01-02', 0.003, { billed: 0.003 }]]);
    const bad = await runWeft(['stats', '--version', '2', '--db', db], dirname(db));
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('--version needs a workflow')]);
  });
});
