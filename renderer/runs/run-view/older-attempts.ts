// A step's attempts as the step inspector lists them: the run's detail carries only each step's
// latest ones (GET /api/runs/:id, with `attemptCount` where the step has more); the older ones are
// read on demand, a page at a time, back from the place where the detail's attempts began
// (GET /api/runs/:id/steps/:stepId/attempts). Pages join on only where they meet without a gap, so
// a live run whose detail moved on since shows its older attempts from the new place again.
import type { AttemptDetail, StepDetail } from '../../../shared/api/run-detail.ts';
import type { StepAttemptsPage } from '../../../shared/api/step-attempts.ts';

/** The attempts to list, oldest first, and how many older ones are not read yet. */
export interface AttemptList {
  attempts: AttemptDetail[];
  /** The place of `attempts[0]` in the step's whole list: value paths address an attempt by it. */
  firstPlace: number;
  /** Attempts before `firstPlace`, not read yet. */
  hidden: number;
}

/** Where the detail's attempts of `step` begin in its whole list (0 unless the detail cut them). */
export function detailFirstPlace(step: Pick<StepDetail, 'attempts' | 'attemptCount'>): number {
  return (step.attemptCount ?? step.attempts.length) - step.attempts.length;
}

/**
 * The step's attempts with the older pages read back from `anchor` (newest page first, as the
 * pager reads them); pages read from another anchor, or that leave a gap, are left out.
 *
 * @example
 * attemptList({ attempts: last20, attemptCount: 45 }, [{ from: 5, attempts: twenty, ... }], 25);
 * // { attempts: [...twenty, ...last20], firstPlace: 5, hidden: 5 }
 */
export function attemptList(step: Pick<StepDetail, 'attempts' | 'attemptCount'>, pages: readonly StepAttemptsPage[] | undefined, anchor: number | null): AttemptList {
  const from = detailFirstPlace(step);
  const older: AttemptDetail[][] = [];
  let next = from;
  if (anchor === from) {
    for (const page of pages ?? []) {
      if (page.from + page.attempts.length !== next) break;
      older.unshift(page.attempts);
      next = page.from;
    }
  }
  return { attempts: [...older.flat(), ...step.attempts], firstPlace: next, hidden: next };
}
