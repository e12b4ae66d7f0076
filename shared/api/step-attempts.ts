// A step's attempts a page at a time (`GET /api/runs/:id/steps/:stepId/attempts`). The run's
// detail over HTTP (`GET /api/runs/:id`) carries only each step's latest DETAIL_ATTEMPTS attempts,
// with the step's `attemptCount` where it has more: a loop step of 11,111 attempts made the detail
// megabytes. The older ones come from this route, newest page first, by their place in the step's
// attempt list (attempts are only ever added to its end, so a place never changes meaning).
import { z } from 'zod';
import { AttemptDetail } from './run-detail.ts';
import { DEFAULT_ATTEMPT_PAGE, DETAIL_ATTEMPTS, MAX_ATTEMPT_PAGE } from './read-limits.ts';

export { DEFAULT_ATTEMPT_PAGE, DETAIL_ATTEMPTS, MAX_ATTEMPT_PAGE };

/**
 * The query of `GET /api/runs/:id/steps/:stepId/attempts?before=&limit=`: the attempts at places
 * before `before` (from 0; all of them when left out), at most `limit`, the latest of those.
 *
 * @example
 * StepAttemptsQuery.parse({ before: '100', limit: '20' }); // attempts 80 to 99
 */
export const StepAttemptsQuery = z.strictObject({
  before: z.coerce.number('before is the place of an attempt in the step\'s list, a whole number from 0 (a page\'s `from`)').int('before is a whole number').nonnegative('before is 0 or more').optional(),
  limit: z.coerce.number('limit is a whole number').int('limit is a whole number').min(1, 'limit is 1 or more').max(MAX_ATTEMPT_PAGE, `limit is at most ${MAX_ATTEMPT_PAGE}`).optional(),
});
export type StepAttemptsQuery = z.infer<typeof StepAttemptsQuery>;

/**
 * A page of a step's attempts, oldest first: the attempts at places `from` to `from + attempts.length - 1`
 * of `total`. `before` is the query for the page before this one (`from`), or null when this page
 * starts at the first attempt. Values over 64 KiB come as ElidedValue stubs whose path
 * (`steps.ID.attempts[K].output`) `GET /api/runs/:id/value` serves.
 *
 * @example
 * const page = StepAttemptsPage.parse(await (await fetch(`/api/runs/${id}/steps/a/attempts?before=${from}`)).json());
 */
export const StepAttemptsPage = z.strictObject({
  runId: z.string(),
  stepId: z.string(),
  attempts: z.array(AttemptDetail),
  from: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  before: z.number().int().positive().nullable(),
});
export type StepAttemptsPage = z.infer<typeof StepAttemptsPage>;
