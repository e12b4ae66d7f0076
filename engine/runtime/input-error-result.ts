// A step whose input, key, deadline or timer expression cannot be resolved fails before any work:
// `input_error`, never retried (the same expression over the same data fails the same way).
import type { AttemptResult } from '../executors/executor.ts';

/** The failed result of a step whose input could not be resolved. */
export function inputErrorResult(error: unknown): AttemptResult {
  return { outcome: 'failed', code: 'input_error', message: error instanceof Error ? error.message : String(error), retryable: false };
}
