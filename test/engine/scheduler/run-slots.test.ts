// Run slots alone: how many runs of a workflow run, whether a new one starts or queues, which
// queued run goes next, and resource pools.
import { describe, expect, it } from 'vitest';
import { admitRun, countRunningRuns, nextQueuedRun, poolOf, releaseSlot, slotOrQueue, workflowsToDequeue, type Pool } from '../../../engine/runtime/run-slots.ts';

const run = (runId: string, fields: { state?: string; queued?: boolean; priority?: number; createdAt?: number; workflow?: string; max?: number } = {}) => ({
  runId,
  state: (fields.state ?? 'running') as 'running',
  queued: fields.queued ?? false,
  priority: fields.priority ?? 0,
  createdAt: fields.createdAt ?? 0,
  workflow: { id: fields.workflow ?? 'w', limits: fields.max === undefined ? undefined : { maxParallelRuns: fields.max } },
});

describe('run slots', () => {
  it('counts running runs from the store, corrected by the runs in memory', () => {
    const live = [run('r2', { state: 'succeeded' }), run('r3'), run('r4', { queued: true }), run('r5', { workflow: 'other' })];
    expect(countRunningRuns(['r1', 'r2'], live, 'w', 'r9')).toBe(2); // r1 (stored), r3 (live); r2 ended
    expect(countRunningRuns(['r1', 'r2'], live, 'w', 'r1')).toBe(1);
  });

  it('starts a run while slots are free and queues it, with the reason, when not', () => {
    expect(admitRun('w', undefined, 50)).toEqual({ kind: 'start' });
    expect(admitRun('w', 2, 1)).toEqual({ kind: 'start' });
    expect(admitRun('w', 2, 2)).toEqual({ kind: 'queue', reason: '2 of 2 parallel runs of "w" are running' });
  });

  it('dequeues the highest priority first, then the oldest', () => {
    const queued = [
      run('old-low', { state: 'waiting', queued: true, priority: 0, createdAt: 1 }),
      run('new-high', { state: 'waiting', queued: true, priority: 5, createdAt: 9 }),
      run('old-high', { state: 'waiting', queued: true, priority: 5, createdAt: 3 }),
      run('other', { state: 'waiting', queued: true, priority: 9, workflow: 'x' }),
    ];
    expect(nextQueuedRun(queued, 'w', (r) => r)?.runId).toBe('old-high');
    expect(nextQueuedRun([run('a')], 'w', (r) => r)).toBeUndefined();
  });

  it('dequeues for limited workflows whose runs stopped running', () => {
    expect([...workflowsToDequeue([run('a', { state: 'succeeded', max: 1 }), run('b', { workflow: 'x', max: 1 }), run('c', { workflow: 'y', state: 'failed' })])]).toEqual(['w']);
  });

  it('makes a pool from the first limit seen, queues waiters once, and wakes them in order', () => {
    const pools = new Map<string, Pool<string>>();
    expect(poolOf(pools, undefined, 'gpu')).toBeUndefined();
    expect(poolOf(pools, { concurrency: { gpu: 1 } }, undefined)).toBeUndefined();
    const pool = poolOf(pools, { concurrency: { gpu: 1 } }, 'gpu') as Pool<string>;
    expect(poolOf(pools, { concurrency: { gpu: 7 } }, 'gpu')).toBe(pool);
    expect(slotOrQueue(pool, 'a', (x, y) => x === y)).toBe(true);
    pool.inUse++;
    expect(slotOrQueue(pool, 'b', (x, y) => x === y)).toBe(false);
    expect(slotOrQueue(pool, 'b', (x, y) => x === y)).toBe(false);
    expect(slotOrQueue(pool, 'c', (x, y) => x === y)).toBe(false);
    expect(pool.queue).toEqual(['b', 'c']);
    expect(releaseSlot(pool)).toBe('b');
    expect(pool.inUse).toBe(0);
  });
});
