// Principle 3: when an attempt is cut short after its work began (aborted on timeout or
// cancellation, or its process died), nobody knows whether the effect happened. For a step with an
// `external` effect that is the outcome `unknown`, which is never retried blindly; for other
// steps, repeating the work is harmless, so it is a retryable failure.
import type { Step } from '../../shared/definition/workflow-schema.ts';
import { abortReasonText } from './abort-reason.ts';
import type { AttemptResult } from './executor.ts';
import type { AttemptErrorCode } from '../../shared/events/attempt-error-codes.ts';

/** The result of an attempt aborted through its signal while the work was running. */
export function abortedResult(step: Step, signal: AbortSignal, detail = ''): AttemptResult {
  const reason = `aborted: ${abortReasonText(signal)}`;
  if (step.effect === 'external') return { outcome: 'unknown', reason: reason + detail };
  return { outcome: 'failed', code: 'aborted', message: reason + detail, retryable: true };
}

/** The result of an attempt whose process ended without reporting (a crash, a foreign signal). */
export function crashedResult(step: Step, code: AttemptErrorCode, message: string): AttemptResult {
  if (step.effect === 'external') return { outcome: 'unknown', reason: `${code}: ${message}` };
  return { outcome: 'failed', code, message };
}

/** Aborted before anything started: nothing can have happened, whatever the effect. */
export function notStartedResult(signal: AbortSignal): AttemptResult {
  return { outcome: 'failed', code: 'aborted', message: `aborted before it started: ${abortReasonText(signal)}`, retryable: true };
}
