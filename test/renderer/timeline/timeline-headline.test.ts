// The timeline's hover card says what a bar is as a sentence ("attempt 1 ran and succeeded"), not
// a run of labels ("running · attempt 1 · succeeded") (issue 21, point 7).
import { describe, expect, it } from 'vitest';
import { barHeadline } from '../../../renderer/runs/timeline/timeline-labels.ts';

describe('barHeadline', () => {
  it.each([
    [{ kind: 'running', attempt: 1, outcome: 'succeeded', endMs: 5 }, 'attempt 1 ran and succeeded'],
    [{ kind: 'running', attempt: 2, outcome: 'failed', endMs: 5 }, 'attempt 2 ran and failed'],
    [{ kind: 'running', attempt: 1, outcome: 'open', endMs: null }, 'attempt 1 is running'],
    [{ kind: 'running', attempt: 1, outcome: 'unknown', endMs: 5 }, 'attempt 1 ran; its outcome is unknown'],
    [{ kind: 'waiting_person', attempt: 1, outcome: 'succeeded', endMs: 5 }, 'attempt 1 waited for a person and succeeded'],
    [{ kind: 'waiting_person', attempt: 1, outcome: 'open', endMs: null }, 'attempt 1 is waiting for a person'],
    [{ kind: 'retry_wait', attempt: 3, outcome: null, endMs: 5 }, 'attempt 3 waited for its retry'],
    [{ kind: 'paused', attempt: null, outcome: null, endMs: 5 }, 'paused'],
  ] as const)('%o → %s', (bar, words) => {
    expect(barHeadline(bar)).toBe(words);
  });
});
