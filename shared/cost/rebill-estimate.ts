// What a retry, fork, revision or replay will bill again, before it acts (docs/runs.md, "Billed
// again"): `weft retry|fork --json` print it as `rebill`, `weft revise --dry-run` and the revise
// plan carry it, and `GET /api/runs/:id/rebill` answers it for the app's confirmations. Worked out
// by shared/cost/rebill.ts from the run's recorded attempts.
import { z } from 'zod';
import { STEP_KINDS } from '../definition/names.ts';

/** The acts that may run steps again. */
export const REBILL_ACTIONS = ['retry', 'fork', 'revise', 'replay'] as const;
export type RebillAction = (typeof REBILL_ACTIONS)[number];

/**
 * One step that will be billed again. `estimate` is what its latest attempt with a recorded cost
 * cost (`basis` 'last attempt'); null when none recorded one (`basis` 'unknown'): an agent, or a
 * step that declares a cost per call. `when` is 'runs again' for a step the act runs for sure, and
 * 'if reached' for one that runs again only if the path leads to it again.
 */
export const RebillStep = z.strictObject({
  stepId: z.string(),
  kind: z.enum(STEP_KINDS),
  estimate: z.number().nonnegative().nullable(),
  basis: z.enum(['last attempt', 'unknown']),
  when: z.enum(['runs again', 'if reached']),
});
export type RebillStep = z.infer<typeof RebillStep>;

/**
 * The estimate: the steps, `total` of those that run again for sure, `upTo` with those billed
 * only if reached, in `currency` (null while no listed step recorded a cost). `note` says why
 * nothing is billed where that is the act's nature (a replay).
 *
 * @example
 * RebillEstimate.parse({ action: 'retry', steps: [{ stepId: 'draft', kind: 'agent', estimate: 0.012, basis: 'last attempt', when: 'runs again' }], total: 0.012, upTo: 0.012, currency: 'USD' });
 */
export const RebillEstimate = z.strictObject({
  action: z.enum(REBILL_ACTIONS),
  steps: z.array(RebillStep),
  total: z.number().nonnegative(),
  upTo: z.number().nonnegative(),
  currency: z.string().nullable(),
  note: z.string().optional(),
});
export type RebillEstimate = z.infer<typeof RebillEstimate>;

/** `GET /api/runs/:id/rebill?action=retry|fork|replay&step=STEP`: a revision's comes with its plan. */
export const RebillQuery = z.strictObject({
  action: z.enum(['retry', 'fork', 'replay']),
  step: z.string().min(1).optional(),
});
export type RebillQuery = z.infer<typeof RebillQuery>;
