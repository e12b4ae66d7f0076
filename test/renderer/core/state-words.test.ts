// A state in a sentence reads as English (issue 21, point 7: "the run is succeeded").
import { describe, expect, it } from 'vitest';
import { RUN_STATES, STEP_STATES } from '../../../shared/definition/names.ts';
import { stateWords } from '../../../renderer/core/state-words.ts';
import { notPermitted } from '../../../renderer/runs/actions/run-facts.ts';

describe('stateWords', () => {
  it.each([
    ['succeeded', 'run', 'has succeeded'],
    ['failed', 'run', 'has failed'],
    ['cancelled', 'run', 'was cancelled'],
    ['needs_attention', 'run', 'needs attention'],
    ['paused', 'run', 'is paused'],
    ['retry_wait', 'step', 'is waiting to retry'],
    ['unknown', 'step', 'has an unknown outcome'],
    ['skipped', 'step', 'was skipped'],
  ] as const)('%s (%s) → %s', (state, what, words) => {
    expect(stateWords(state, what)).toBe(words);
  });

  it('never puts a past participle or an underscore after "is"', () => {
    for (const s of RUN_STATES) expect(stateWords(s, 'run')).not.toMatch(/^is (succeeded|failed|cancelled)|_/);
    for (const s of STEP_STATES) expect(stateWords(s, 'step')).not.toMatch(/^is (succeeded|failed|cancelled|skipped|rejected|compensated|unknown)|_/);
  });

  it('makes a disabled action’s reason read', () => {
    expect(notPermitted('pause', 'succeeded', 'run')).toBe('The engine does not permit pause now: the run has succeeded.');
    expect(notPermitted('retry', 'retry_wait', 'step')).toBe('The engine does not permit retry now: the step is waiting to retry.');
  });
});
