// What the graph shows: the report's step latencies and edge frequencies, and the share of runs
// that took each edge (a loop's edge taken twice in one run counts that run once).
import { describe, expect, it } from 'vitest';
import { graphStats } from '../../../renderer/insights/graph-stats.ts';
import type { RunMetrics, WorkflowReport } from '../../../shared/api/workflow-stats.ts';

const run = (runId: string, edges: RunMetrics['edges']): RunMetrics => ({
  runId,
  workflowId: 'w',
  version: 1,
  state: 'succeeded',
  finished: true,
  startedAt: 0,
  endedAt: 1,
  durationMs: 1,
  activeMs: 1,
  waitingMs: 0,
  queueMs: 0,
  attentionMs: 0,
  retries: 0,
  compensations: 0,
  humanInterventions: 0,
  interventions: { decisions: 0, reassignments: 0, operatorActions: 0, revisions: 0 },
  path: [],
  edges,
  steps: {},
  failure: null,
});

const report = (runs: RunMetrics[]): WorkflowReport => ({
  stats: {
    workflowId: 'w',
    versions: [1],
    runs: runs.length,
    states: { running: 0, waiting: 0, paused: 0, needs_attention: 0, succeeded: runs.length, failed: 0, cancelled: 0 },
    finished: runs.length,
    successRate: 1,
    retryRate: 0,
    compensationRate: 0,
    humanInterventionRate: 0,
    totals: { retries: 0, compensations: 0, humanInterventions: 0 },
    durationMs: null,
    failures: {},
    cost: { total: 0, currency: 'USD', inputTokens: 0, outputTokens: 0, perSuccessfulRun: null, perSuccess: null, days: [], steps: [] },
    steps: {
      a: { runs: 2, activations: 2, attempts: 2, retries: 0, outcomes: { succeeded: 2 }, latencyMs: { p50: 10, p95: 40, max: 40, count: 2 }, activeMs: null },
      never: { runs: 0, activations: 0, attempts: 0, retries: 0, outcomes: {}, latencyMs: null, activeMs: null },
    },
    edges: {
      loop: { decided: 3, taken: 2, frequency: 2 / 3 },
      other: { decided: 2, taken: 0, frequency: 0 },
      unreached: { decided: 0, taken: 0, frequency: null },
    },
  },
  runs,
});

describe('graphStats', () => {
  const g = graphStats(report([run('r1', { loop: { decided: 2, taken: 2 }, other: { decided: 1, taken: 0 } }), run('r2', { loop: { decided: 1, taken: 0 }, other: { decided: 1, taken: 0 } })]));

  it('puts p50 and p95 of each step on its node, null where it never settled', () => {
    expect(g.steps['a']).toEqual({ p50: 10, p95: 40, runs: 2, of: 2 });
    expect(g.steps['never']).toEqual({ p50: null, p95: null, runs: 0, of: 2 });
  });

  it('labels edges with the report’s frequency and sizes them by the share of runs taking them', () => {
    expect(g.edges['loop']).toEqual({ frequency: 2 / 3, taken: 2, decided: 3, share: 0.5 });
    expect(g.edges['other']?.share).toBe(0);
    expect(g.edges['unreached']).toEqual({ frequency: null, taken: 0, decided: 0, share: 0 });
  });

  it('gives a share of 0, not NaN, with no runs', () => {
    expect(graphStats(report([])).edges['loop']?.share).toBe(0);
  });

  it('takes the share of runs from the server\'s count over all runs when the report lists only the newest', () => {
    const newest = report([run('r2', { loop: { decided: 1, taken: 0 }, other: { decided: 1, taken: 0 } })]);
    const g2 = graphStats({ ...newest, stats: { ...newest.stats, runs: 10 }, runsOmitted: 9, edgeRuns: { loop: 4, other: 0, unreached: 0 } });
    expect(g2.edges['loop']?.share).toBe(0.4);
    expect(g2.steps['a']?.of).toBe(10);
  });
});

