// The step inspector's attempt list (renderer/runs/run-view/older-attempts.ts): the detail's latest
// attempts with the older pages read back from where they began, joined only where they meet
// without a gap, with the place of the first one (value paths address an attempt by its place) and
// how many are still unread.
import { describe, expect, it } from 'vitest';
import type { AttemptDetail } from '../../../shared/api/run-detail.ts';
import type { StepAttemptsPage } from '../../../shared/api/step-attempts.ts';
import { attemptList, detailFirstPlace } from '../../../renderer/runs/run-view/older-attempts.ts';

const attempt = (place: number): AttemptDetail => ({
  id: `a/${place + 1}.1`, activation: place + 1, number: 1, state: 'succeeded', startedAt: '2026-01-01T00:00:00.000Z', endedAt: '2026-01-01T00:00:01.000Z',
  inputHash: 'h', variant: null, error: null, input: {}, output: place, evidence: null, effect: 'none', idempotencyKey: null, timeoutMs: null, meta: null, queuedAtMs: null, startedAtMs: 0, endedAtMs: 1,
});
const places = (from: number, to: number): AttemptDetail[] => Array.from({ length: to - from }, (_, k) => attempt(from + k));
const page = (from: number, to: number, total = 45): StepAttemptsPage => ({ runId: 'r', stepId: 'a', attempts: places(from, to), from, total, before: from === 0 ? null : from });
const ids = (list: { attempts: AttemptDetail[] }): number[] => list.attempts.map((a) => a.activation - 1);

describe('a step\'s attempts in the inspector', () => {
  const step = { attempts: places(25, 45), attemptCount: 45 };

  it('lists a step the detail did not cut as it is, with nothing hidden', () => {
    const whole = { attempts: places(0, 3) };
    expect(detailFirstPlace(whole)).toBe(0);
    expect(attemptList(whole, undefined, null)).toEqual({ attempts: whole.attempts, firstPlace: 0, hidden: 0 });
  });

  it('says how many older attempts are unread until they are asked for', () => {
    expect(detailFirstPlace(step)).toBe(25);
    expect(attemptList(step, undefined, null)).toMatchObject({ firstPlace: 25, hidden: 25 });
    expect(ids(attemptList(step, undefined, null))).toEqual(places(25, 45).map((_, k) => 25 + k));
  });

  it('puts the pages read back from the detail\'s first place before its attempts, oldest first', () => {
    const one = attemptList(step, [page(5, 25)], 25);
    expect(one).toMatchObject({ firstPlace: 5, hidden: 5 });
    expect(ids(one)).toEqual(Array.from({ length: 40 }, (_, k) => 5 + k));
    const all = attemptList(step, [page(5, 25), page(0, 5)], 25);
    expect(all).toMatchObject({ firstPlace: 0, hidden: 0 });
    expect(ids(all)).toEqual(Array.from({ length: 45 }, (_, k) => k));
  });

  it('leaves out pages read from where a live run\'s detail began before it moved on', () => {
    const later = { attempts: places(27, 47), attemptCount: 47 };
    expect(attemptList(later, [page(5, 25)], 25)).toMatchObject({ firstPlace: 27, hidden: 27 });
    // A page that does not meet the one after it is not joined either.
    expect(attemptList(step, [page(5, 25), page(0, 4)], 25)).toMatchObject({ firstPlace: 5, hidden: 5 });
  });
});
