// Each run's time split as shares of its own duration, newest first.
import { describe, expect, it } from 'vitest';
import { timeSplitRows } from '../../../renderer/insights/time-split.ts';
import type { RunMetrics } from '../../../shared/api/workflow-stats.ts';

const run = (runId: string, startedAt: number, split: [number, number, number, number]): RunMetrics => ({
  runId,
  workflowId: 'w',
  version: 1,
  state: 'succeeded',
  finished: true,
  startedAt,
  endedAt: startedAt + split.reduce((a, b) => a + b, 0),
  durationMs: split.reduce((a, b) => a + b, 0),
  activeMs: split[0],
  waitingMs: split[1],
  queueMs: split[2],
  attentionMs: split[3],
  retries: 0,
  compensations: 0,
  humanInterventions: 0,
  interventions: { decisions: 0, reassignments: 0, operatorActions: 0, revisions: 0 },
  path: [],
  edges: {},
  steps: {},
  failure: null,
});

describe('timeSplitRows', () => {
  it('lists the newest runs first, at most `limit`', () => {
    const rows = timeSplitRows([run('a', 1, [1, 0, 0, 0]), run('b', 3, [1, 0, 0, 0]), run('c', 2, [1, 0, 0, 0])], 2);
    expect(rows.map((r) => r.runId)).toEqual(['b', 'c']);
  });

  it('gives shares of the run’s duration that add up to 1', () => {
    const [row] = timeSplitRows([run('a', 1, [300, 600, 50, 50])], 5);
    expect(row?.share).toEqual({ active: 0.3, waiting: 0.6, queued: 0.05, attention: 0.05 });
    expect(row?.ms.waiting).toBe(600);
    expect(row?.durationMs).toBe(1000);
  });

  it('gives zero shares to a run of no duration', () => {
    const [row] = timeSplitRows([run('a', 1, [0, 0, 0, 0])], 5);
    expect(Object.values(row?.share ?? {})).toEqual([0, 0, 0, 0]);
  });
});
