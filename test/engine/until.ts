// Polling helper shared by engine and executor tests: test/wait-until.ts with a synchronous check.
import { WAIT_BOUND_MS, waitUntil } from '../wait-until.ts';

/** Polls until `check` is true (state, not time: the bound only stops a broken test). */
export function until(check: () => boolean, what: string, boundMs = WAIT_BOUND_MS): Promise<void> {
  return waitUntil(check, what, { boundMs, pollMs: 10 });
}
