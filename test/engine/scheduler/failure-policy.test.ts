// The failure and retry policy alone: a failed attempt's step, its retry policy and error code
// in; run again, retry after a delay, or settle out.
import { describe, expect, it } from 'vitest';
import { countedAttempts, decideAfterFailure } from '../../../engine/runtime/failure-policy.ts';
import { end } from '../harness.ts';
import { attempt, plainRun } from './plain-run.ts';

const call = (retry?: Record<string, unknown>) =>
  plainRun([{ id: 'call', kind: 'command', config: { argv: ['true'] }, ...(retry ? { retry } : {}) }, end()], [{ id: 'a', from: 'call', to: 'done' }]);

describe('decideAfterFailure', () => {
  it('runs an attempt the engine interrupted again at once, not counted as a retry', () => {
    const p = call();
    Object.assign(p.s('call'), { activation: 1, attempts: [attempt({ number: 1, error: { code: 'interrupted', message: '' } })] });
    expect(countedAttempts(p.s('call'))).toBe(0);
    expect(decideAfterFailure(p.s('call'), p.step('call'), 'interrupted', true, () => 0)).toEqual({
      kind: 'rerun',
      nextAttempt: 2,
      reason: 'the engine restarted during the attempt; running it again (not counted as a retry)',
    });
  });

  it('retries with the backoff while attempts are left, and honours a longer retry-after', () => {
    const p = call({ maxAttempts: 3, initialIntervalMs: 1000, backoffCoefficient: 2 });
    const exit1 = (number: number) => attempt({ number, error: { code: 'exit_1', message: '' } });
    Object.assign(p.s('call'), { activation: 1, attempts: [exit1(1), exit1(2), exit1(3)] });
    expect(decideAfterFailure(p.s('call'), p.step('call'), 'exit_1', true, () => 0)).toEqual({ kind: 'settle', outcome: 'failed', reason: '3 of 3 attempts used' });
    p.s('call').attempts.pop();
    expect(decideAfterFailure(p.s('call'), p.step('call'), 'exit_1', true, () => 0)).toEqual({ kind: 'retry', nextAttempt: 3, delayMs: 2000, reason: 'exit_1: attempt 3 of 3 in 2000 ms' });
    p.s('call').attempts.pop();
    expect(decideAfterFailure(p.s('call'), p.step('call'), 'exit_1', true, () => 0)).toEqual({ kind: 'retry', nextAttempt: 2, delayMs: 1000, reason: 'exit_1: attempt 2 of 3 in 1000 ms' });
    p.s('call').attempts[0] = attempt({ number: 1, error: { code: 'http_429', message: '' }, retryAfterMs: 5000 });
    expect(decideAfterFailure(p.s('call'), p.step('call'), 'http_429', true, () => 0)).toMatchObject({ kind: 'retry', delayMs: 5000 });
  });

  it('draws the jitter from the random source it is given', () => {
    const p = call({ maxAttempts: 2, initialIntervalMs: 1000, jitter: 0.5 });
    Object.assign(p.s('call'), { activation: 1, attempts: [attempt({ number: 1 })] });
    expect(decideAfterFailure(p.s('call'), p.step('call'), 'exit_1', true, () => 1)).toMatchObject({ delayMs: 500 });
    expect(decideAfterFailure(p.s('call'), p.step('call'), 'exit_1', true, () => 0)).toMatchObject({ delayMs: 1000 });
  });

  it.each([
    ['a code that is not retryable', 'exit_1', false, { maxAttempts: 5 }, { kind: 'settle', outcome: 'failed', reason: 'exit_1 is not retryable' }],
    ['a code listed in nonRetryable', 'http_400', true, { maxAttempts: 5, nonRetryable: ['http_400'] }, { kind: 'settle', outcome: 'failed', reason: 'http_400 is listed in nonRetryable' }],
    ['a timeout with no attempt left', 'timeout', true, undefined, { kind: 'settle', outcome: 'timed_out', reason: '1 of 1 attempts used' }],
  ])('settles on %s', (_what, code, retryable, retry, expected) => {
    const p = call(retry);
    Object.assign(p.s('call'), { activation: 1, attempts: [attempt({ number: 1 })] });
    expect(decideAfterFailure(p.s('call'), p.step('call'), code, retryable, () => 0)).toEqual(expected);
  });

  it('counts only the current activation', () => {
    const p = call();
    Object.assign(p.s('call'), { activation: 2, attempts: [attempt({ activation: 1, number: 1 }), attempt({ activation: 2, number: 1 })] });
    expect(countedAttempts(p.s('call'))).toBe(1);
  });
});
