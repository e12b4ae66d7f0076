// What follows a failed attempt, as one pure decision: run it again at once (the engine stopped
// during it, which is not a retry), retry after a backoff, or settle the step failed or timed out.
// The scheduler acts on the decision; the retry policy's arithmetic is in retry-policy.ts.
import type { Step } from '../../shared/definition/workflow-schema.ts';
import type { Random } from '../time/clock.ts';
import { backoffMs, mayRetry } from './retry-policy.ts';
import { currentAttempt, type StepRuntime } from '../../shared/run/run-model.ts';

export type FailureDecision =
  /** The engine stopped during the attempt: it runs again now, not counted as a retry. */
  | { kind: 'rerun'; nextAttempt: number; reason: string }
  /** Another attempt after `delayMs`. */
  | { kind: 'retry'; nextAttempt: number; delayMs: number; reason: string }
  /** No attempt is left: the step settles with this outcome. */
  | { kind: 'settle'; outcome: 'failed' | 'timed_out'; reason: string };

/** Attempts of the step's current activation that count against its retry policy (a rerun after an engine restart does not). */
export function countedAttempts(s: StepRuntime): number {
  return s.attempts.filter((a) => a.activation === s.activation && a.error?.code !== 'interrupted').length;
}

/**
 * After attempt `code` of step `s` failed: `random` is the engine's random source (one draw, for
 * the backoff's jitter, only when a retry is decided).
 *
 * @example decideAfterFailure(s, step, 'timeout', true, () => 0.5) // { kind: 'retry', delayMs: 1000, ... }
 */
export function decideAfterFailure(s: StepRuntime, step: Step, code: string, retryable: boolean, random: Random): FailureDecision {
  const counted = countedAttempts(s);
  const current = currentAttempt(s);
  const nextAttempt = (current?.number ?? 0) + 1;
  if (code === 'interrupted') {
    return { kind: 'rerun', nextAttempt, reason: 'the engine restarted during the attempt; running it again (not counted as a retry)' };
  }
  if (mayRetry(step.retry, counted, code, retryable)) {
    // An escalation to the next candidate (docs/routing.md) has no reason to wait: another model answers.
    if (code === 'low_confidence') {
      return { kind: 'retry', nextAttempt, delayMs: 0, reason: `low_confidence: escalating to the next candidate, attempt ${counted + 1} of ${step.retry?.maxAttempts ?? 1}` };
    }
    // A provider's retry-after (429, 503) is honoured when it asks for longer than the backoff.
    const asked = current?.retryAfterMs ?? 0;
    const delayMs = Math.max(backoffMs(step.retry, counted + 1, random), asked);
    return { kind: 'retry', nextAttempt, delayMs, reason: `${code}: attempt ${counted + 1} of ${step.retry?.maxAttempts ?? 1} in ${delayMs} ms` };
  }
  const reason = !retryable
    ? `${code} is not retryable`
    : step.retry?.nonRetryable?.includes(code) ? `${code} is listed in nonRetryable` : `${counted} of ${step.retry?.maxAttempts ?? 1} attempts used`;
  return { kind: 'settle', outcome: code === 'timeout' ? 'timed_out' : 'failed', reason };
}
