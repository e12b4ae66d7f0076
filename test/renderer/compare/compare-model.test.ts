// What the compare view's cells say and mark, from plain ComparedStepSides (the shapes
// compareRuns gives; test/shared/compare-runs.test.ts checks those on real runs): a step that ran
// in an earlier pass reads what it did, a step that did not run has no time whatever its state
// and its durationMs, and the state cell splits "failed then skipped" into a coloured word and a
// quiet rest.
import { describe, expect, it } from 'vitest';
import type { ComparedStep, ComparedStepSide } from '../../../shared/api/run-comparison.ts';
import { durationOf, rowMarks, sideLabel, stateCell } from '../../../renderer/runs/compare/compare-model.ts';

const side = (over: Partial<ComparedStepSide>): ComparedStepSide => ({
  state: 'succeeded', outcome: 'succeeded', attempts: 1, activations: 1, ran: true, reached: true, lastAttempt: 'succeeded',
  next: [], attempt: 's/1.1', error: null, startedAtMs: 1000, endedAtMs: 1400, durationMs: 400, ...over,
});
const notRun = (state: 'skipped' | 'blocked'): ComparedStepSide => side({ state, outcome: state === 'skipped' ? 'skipped' : null, attempts: 0, activations: 0, ran: false, reached: false, lastAttempt: null, attempt: null, startedAtMs: null, endedAtMs: null, durationMs: null });

describe('the compare view cells', () => {
  const cases: [string, ComparedStepSide | null, string, ReturnType<typeof stateCell>, number | null][] = [
    ['a step that succeeded', side({}), 'succeeded', { word: 'succeeded', state: 'succeeded', then: null, quiet: false }, 400],
    ['a step that failed in an earlier pass, skipped by the latest', side({ state: 'skipped', outcome: 'skipped', lastAttempt: 'failed' }), 'failed then skipped', { word: 'failed', state: 'failed', then: 'then skipped', quiet: false }, 400],
    ['a step that ran before a revision the run has not brought back to it', side({ state: 'blocked', outcome: null }), 'succeeded then not reached', { word: 'succeeded', state: 'succeeded', then: 'then not reached', quiet: false }, 400],
    ['a task withdrawn when its step was skipped', side({ state: 'skipped', outcome: 'skipped', lastAttempt: 'cancelled' }), 'withdrawn', { word: 'withdrawn', state: 'cancelled', then: null, quiet: false }, 400],
    ['a step on a branch not taken', notRun('skipped'), 'skipped', { word: 'skipped', state: 'skipped', then: null, quiet: true }, null],
    ['a step not reached yet', notRun('blocked'), 'not reached', { word: 'not reached', state: 'blocked', then: null, quiet: true }, null],
    ['a step still running', side({ state: 'running', outcome: null, lastAttempt: 'running', endedAtMs: null, durationMs: null }), 'running', { word: 'running', state: 'running', then: null, quiet: false }, null],
    ['a step settled by an operator without an attempt', side({ attempts: 0, ran: false, lastAttempt: null, attempt: null, startedAtMs: null, endedAtMs: null, durationMs: null }), 'succeeded', { word: 'succeeded', state: 'succeeded', then: null, quiet: false }, null],
    ['a step its version does not have', null, 'not in version', { word: 'not in version', state: 'blocked', then: null, quiet: true }, null],
  ];
  it.each(cases)('%s', (_what, s, label, cell, duration) => {
    expect(sideLabel(s)).toBe(label);
    expect(stateCell(s)).toEqual(cell);
    expect(durationOf(s)).toBe(duration);
  });

  it('gives no time to a side that did not run, even one that carries a duration', () => {
    expect(durationOf(side({ ran: false, durationMs: 14_400 }))).toBeNull();
  });

  it('marks the states of a step reached in one run only, and durations that differ in whole seconds', () => {
    const step = (a: ComparedStepSide, b: ComparedStepSide, differs: ComparedStep['differs'] = []): ComparedStep => ({ id: 's', a, b, differs, fields: { input: [], output: [], inputTotal: 0, outputTotal: 0 } });
    expect(rowMarks(step(side({ state: 'skipped', outcome: 'skipped' }), notRun('skipped'), ['path']))).toEqual({ state: true, duration: false });
    expect(rowMarks(step(side({ durationMs: 400 }), side({ durationMs: 2400 })))).toEqual({ state: false, duration: true });
    expect(rowMarks(step(side({ durationMs: 400 }), side({ durationMs: 900 })))).toEqual({ state: false, duration: false });
  });
});
