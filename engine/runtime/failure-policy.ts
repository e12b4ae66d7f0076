// What follows a failed attempt, as one pure decision: run it again at once (the engine stopped
// during it, which is not a retry), retry after a backoff, or settle the step failed or timed out.
// The scheduler acts on the decision; the retry policy's arithmetic is in retry-policy.ts.
import type { Step } from '../../shared/definition/workflow-schema.ts';
import type { Random } from '../time/clock.ts';
import type { RetryLimit } from '../../shared/policy/retry-limit.ts';
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
 * the backoff's jitter, only when a retry is decided); `limit` is what the run's policy allows.
 *
 * @example decideAfterFailure(s, step, 'timeout', true, () => 0.5) // { kind: 'retry', delayMs: 1000, ... }
 */
export function decideAfterFailure(s: StepRuntime, declared: Step, code: string, retryable: boolean, random: Random, limit?: RetryLimit): FailureDecision {
  const counted = countedAttempts(s);
  // The run's policy may allow fewer attempts than the definition asks for (policy/retry-limit.ts).
  const capped = limit !== undefined && limit.maxAttempts < (declared.retry?.maxAttempts ?? 1);
  const step = capped ? { ...declared, retry: { ...declared.retry, maxAttempts: limit.maxAttempts } } : declared;
  const byPolicy = capped ? ` (policy "${limit.rule}" allows ${limit.maxAttempts === 1 ? 'no automatic retry' : `${limit.maxAttempts} attempts`})` : '';
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
    : step.retry?.nonRetryable?.includes(code) ? `${code} is listed in nonRetryable` : `${counted} of ${step.retry?.maxAttempts ?? 1} attempts used${byPolicy}`;
  return { kind: 'settle', outcome: code === 'timeout' ? 'timed_out' : 'failed', reason };
}
