// Commands that give a run a different input: revise it in place (a new input revision) or fork
// it into a new run from a step (`weft revise RUN`, `weft fork RUN --from STEP`).
import { z } from 'zod';
import { RebillEstimate } from '../cost/rebill-estimate.ts';
import { RUN_STATES, STEP_KINDS } from '../definition/names.ts';
import { StepId } from './api-ids.ts';
import { JsonValue } from './json-value.ts';
import { WhoAndWhy } from './who-and-why.ts';

/**
 * A new input revision; only steps whose resolved input changed run again. It answers a
 * ReviseOutcome (the run's state and the plan it acted on); `dryRun` changes nothing and
 * answers a RevisePlan: which steps will run again, keep their evidence, or wait for a decision.
 *
 * @example
 * ReviseCommand.parse({ action: 'revise', input: { orderId: 'A17', revision: 4 }, dryRun: true });
 */
export const ReviseCommand = z.strictObject({ action: z.literal('revise'), input: JsonValue, dryRun: z.boolean().optional(), ...WhoAndWhy });
export type ReviseCommand = z.infer<typeof ReviseCommand>;

/**
 * What a revision will do to one step: `rerun` runs it again; `reuse` keeps its evidence (input
 * unchanged); `keep` keeps it although the input changed (its onRevise is keep); `ask` holds it for
 * a person's decision (weft retry, keep or skip); `carry` leaves it unknown (an earlier attempt
 * with the same input has an unknown outcome); `later` is decided when the steps in `after` have
 * settled.
 */
export const REVISE_PLANS = ['rerun', 'reuse', 'keep', 'ask', 'carry', 'later'] as const;
export type RevisePlanAction = (typeof REVISE_PLANS)[number];

/** One step of a revision plan, in graph order; `evidenceId` for reuse, keep and ask, `after` for later. */
export const RevisePlanStep = z.strictObject({
  stepId: StepId,
  kind: z.enum(STEP_KINDS),
  action: z.enum(REVISE_PLANS),
  reason: z.string().min(1),
  evidenceId: z.string().min(1).optional(),
  after: z.array(StepId).min(1).optional(),
});
export type RevisePlanStep = z.infer<typeof RevisePlanStep>;

const revised = {
  runId: z.string().min(1),
  state: z.enum(RUN_STATES),
  inputRevision: z.number().int().min(2).describe('the revision the plan is for (the run\'s next one)'),
  plan: z.array(RevisePlanStep),
  /** Which steps the revision bills again, about how much (docs/runs.md, "Billed again"). */
  rebill: RebillEstimate.optional(),
};

/**
 * The answer to a dry-run revision, as `weft revise RUN --dry-run --json` prints it: the run's
 * state now and the plan. Nothing was written.
 *
 * @example
 * RevisePlan.parse({ runId: 'r1', state: 'succeeded', dryRun: true, inputRevision: 2,
 *   plan: [{ stepId: 'send_quote', kind: 'command', action: 'ask', reason: 'its input changed after its effect happened', evidenceId: 'e1' }] });
 */
export const RevisePlan = z.strictObject({ runId: revised.runId, state: revised.state, dryRun: z.literal(true), inputRevision: revised.inputRevision, plan: revised.plan, rebill: revised.rebill });
export type RevisePlan = z.infer<typeof RevisePlan>;

/**
 * The answer to a revision that acted, as `weft revise RUN --json` prints it: the run's state
 * afterwards (as RunOutcome) with the plan it printed before it acted.
 */
export const ReviseOutcome = z.strictObject(revised);
export type ReviseOutcome = z.infer<typeof ReviseOutcome>;

/**
 * A new run of the same definition version that reuses the evidence of every step not
 * downstream of `from`; `input` replaces the run input (default: the source run's). The answer
 * names the new run.
 */
export const ForkCommand = z.strictObject({ action: z.literal('fork'), from: StepId, input: JsonValue.optional(), ...WhoAndWhy });
export type ForkCommand = z.infer<typeof ForkCommand>;
