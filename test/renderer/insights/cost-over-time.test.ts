// The cost card's figures (renderer/insights/cost-over-time.ts): every UTC day between the first
// and the last with a cost, a quiet day as zero, at most COST_DAYS of the newest; and the steps'
// shares and cost per attempt.
import { describe, expect, it } from 'vitest';
import type { WorkflowCostStats } from '../../../shared/api/cost-stats.ts';
import { costlySteps, costOverTime, COST_DAYS } from '../../../renderer/insights/cost-over-time.ts';

const day = (d: string, total: number) => ({ day: d, total, inputTokens: 10, outputTokens: 5, attempts: 2 });
const cost = (days: WorkflowCostStats['days'], steps: WorkflowCostStats['steps'] = []): WorkflowCostStats => ({
  total: 0.04, currency: 'USD', inputTokens: 30, outputTokens: 15, perSuccessfulRun: null, perSuccess: null, days, steps,
});

describe('costOverTime', () => {
  it('draws every UTC day from the first to the last, a day with no cost as zero', () => {
    const points = costOverTime(cost([day('2026-02-27', 0.01), day('2026-03-02', 0.03)]));
    expect(points.map((p) => [p.day, p.label, p.total, p.attempts])).toEqual([
      ['2026-02-27', 'Feb 27', 0.01, 2],
      ['2026-02-28', 'Feb 28', 0, 0],
      ['2026-03-01', 'Mar 1', 0, 0],
      ['2026-03-02', 'Mar 2', 0.03, 2],
    ]);
  });

  it('keeps the newest COST_DAYS days, and nothing without a cost', () => {
    const points = costOverTime(cost([day('2025-01-01', 1), day('2026-01-01', 2)]));
    expect(points).toHaveLength(COST_DAYS);
    expect(points.at(-1)).toMatchObject({ day: '2026-01-01', total: 2 });
    expect(costOverTime(cost([]))).toEqual([]);
  });
});

describe('costlySteps', () => {
  it('ranks as the report does, with each step\'s share and cost per attempt', () => {
    const rows = costlySteps(cost([], [
      { stepId: 'draft', total: 0.03, inputTokens: 30, outputTokens: 15, attempts: 4 },
      { stepId: 'check', total: 0.01, inputTokens: 0, outputTokens: 0, attempts: 3 },
      { stepId: 'tidy', total: 0, inputTokens: 0, outputTokens: 0, attempts: 1 },
    ]), 2);
    expect(rows.map((r) => [r.stepId, r.share, r.perAttempt])).toEqual([['draft', 0.75, 0.0075], ['check', 0.25, 0.003333]]);
  });
});
