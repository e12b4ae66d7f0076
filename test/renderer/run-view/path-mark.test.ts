// pathMark: a step that did work and is no longer on the run's path keeps its state and gets a
// mark, never a bare "skipped" (issue 19, items 1 and 7); steps on the path get none.
import { describe, expect, it } from 'vitest';
import { pathMark, type PathMarkStep } from '../../../renderer/graph/path-mark.ts';

const attempt = (id: string, state: 'succeeded' | 'failed' | 'unknown' | 'cancelled' | 'running') => ({
  id,
  activation: Number(/\/(\d+)\./.exec(id)?.[1] ?? 1),
  number: 1,
  state,
  startedAt: '2026-12-01T10:00:00.000Z',
  endedAt: '2026-12-01T10:00:01.000Z',
  inputHash: 'h',
  variant: null,
  error: null,
});

const step = (over: Partial<PathMarkStep>): PathMarkStep => ({ state: 'succeeded', next: 'done: evidence x', attempts: [], ...over });

describe('pathMark', () => {
  it('marks a passed-over step with the engine\'s sentence, its state kept', () => {
    const next = 'passed over: succeeded in activation 1, then no edge into it is taken any more ("revised": not taken)';
    expect(pathMark(step({ next, passedOver: { reason: 'no edge into it is taken any more ("revised": not taken)' }, attempts: [attempt('revise/1.1', 'succeeded')] }))).toEqual({
      kind: 'passed-over',
      label: 'passed over',
      title: next,
    });
  });

  it('makes the sentence from the fields when the record says something else first', () => {
    expect(pathMark(step({ state: 'rejected', next: 'rejected by ann', passedOver: { reason: 'no edge into it is taken any more' }, superseded: { activation: 1, outcome: 'rejected', cause: 'resolve of "write" by ann' } }))?.title).toBe(
      'passed over: rejected, then no edge into it is taken any more (after the resolve of "write" by ann)',
    );
    expect(pathMark(step({ next: 'blocked: waits', superseded: { activation: 2, outcome: 'succeeded', cause: 'retry of "write" by ann' } }))).toEqual({
      kind: 'superseded',
      label: 'superseded',
      title: 'superseded: succeeded in activation 2; the retry of "write" by ann re-decides what led to it',
    });
  });

  it('marks a skipped step that ran in an earlier activation, not one that never did work', () => {
    expect(pathMark(step({ state: 'skipped', next: 'skipped: no incoming edge was taken', attempts: [attempt('b/1.1', 'failed'), attempt('b/1.2', 'succeeded')] }))).toMatchObject({ kind: 'ran-before', label: 'ran before', title: expect.stringContaining('attempt b/1.2 succeeded') });
    expect(pathMark(step({ state: 'skipped', next: 'withdrawn', attempts: [attempt('task/1.1', 'cancelled')] }))).toBeNull();
    expect(pathMark(step({ state: 'skipped', next: 'skipped' }))).toBeNull();
  });

  it('gives nothing for a step on the path', () => {
    expect(pathMark(step({ attempts: [attempt('a/1.1', 'succeeded')] }))).toBeNull();
    expect(pathMark(step({ state: 'failed', attempts: [attempt('a/1.1', 'failed')] }))).toBeNull();
  });
});
