// The paused debug run's words: where it paused (its breakpoint, or after a Step), what Continue,
// Step and Resume do, and the paused step's line, never naming a CLI command.
import { describe, expect, it } from 'vitest';
import { pausedStepNext, pauseWords } from '../../../renderer/runs/actions/debug-words.ts';

const at = (step: string, breakpoints: string[]) => ({ breakpoints, pins: [], pausedAt: { step, activation: 1 }, stepping: false });

describe('pauseWords', () => {
  it('is null unless the run is a debug run paused at a breakpoint', () => {
    expect(pauseWords(undefined)).toBeNull();
    expect(pauseWords({ breakpoints: ['a'], pins: [], pausedAt: null, stepping: true })).toBeNull();
  });

  it('names the breakpoint and, for Continue, the other breakpoints it may stop at', () => {
    const words = pauseWords(at('draft', ['draft', 'review']));
    expect(words?.where).toBe('Paused before draft started, at its breakpoint.');
    expect(words?.continue).toBe('starts draft and runs on until a step with a breakpoint (draft, review) is about to start again.');
    expect(words?.step).toBe('starts draft, then pauses again before the next step that starts, with or without a breakpoint.');
    expect(words?.resume).toMatch(/^does what Continue does here: it starts draft and runs on\. The breakpoints stay set/);
  });

  it('says when no other step has a breakpoint, and when the pause came from a Step', () => {
    expect(pauseWords(at('draft', ['draft']))?.continue).toBe('starts draft and runs on: no other step has a breakpoint, so only a loop back to draft would pause again.');
    expect(pauseWords(at('review', ['draft']))?.where).toBe('Paused before review started, after a Step.');
  });
});

describe('pausedStepNext', () => {
  it('replaces the paused step’s line only, whole or short, without a CLI command', () => {
    const debug = at('draft', ['draft']);
    expect(pausedStepNext(debug, 'review', 'whole')).toBeNull();
    const whole = pausedStepNext(debug, 'draft', 'whole') ?? '';
    expect(whole).toMatch(/^ready: paused before draft started, at its breakpoint\. Continue starts draft .* Step starts draft, .* Resume does what Continue does here/);
    expect(pausedStepNext(debug, 'draft', 'short')).toBe('ready: paused before draft started, at its breakpoint. Continue or Step, at the top of the page, starts it.');
    expect(whole).not.toMatch(/weft /);
  });
});
