// Commands that give a run a different input: revise it in place (a new input revision) or fork
// it into a new run from a step (`weft revise RUN`, `weft fork RUN --from STEP`).
import { z } from 'zod';
import { StepId } from './api-ids.ts';
import { JsonValue } from './json-value.ts';
import { WhoAndWhy } from './who-and-why.ts';

/**
 * A new input revision; only steps whose resolved input changed run again. `dryRun` changes
 * nothing and answers a RevisePlan: which steps will run again, keep their evidence, or wait
 * for a decision.
 *
 * @example
 * ReviseCommand.parse({ action: 'revise', input: { orderId: 'A17', revision: 4 }, dryRun: true });
 */
export const ReviseCommand = z.strictObject({ action: z.literal('revise'), input: JsonValue, dryRun: z.boolean().optional(), ...WhoAndWhy });
export type ReviseCommand = z.infer<typeof ReviseCommand>;

/** What a revision will do to one step. */
export const REVISE_PLANS = ['rerun', 'keep', 'ask'] as const;

/** The answer to a dry-run revision. Nothing was written. */
export const RevisePlan = z.strictObject({
  runId: z.string().min(1),
  dryRun: z.literal(true),
  steps: z.array(z.strictObject({ stepId: z.string(), plan: z.enum(REVISE_PLANS), why: z.string() })),
});
export type RevisePlan = z.infer<typeof RevisePlan>;

/**
 * A new run of the same definition version that reuses the evidence of every step not
 * downstream of `from`; `input` replaces the run input (default: the source run's). The answer
 * names the new run.
 */
export const ForkCommand = z.strictObject({ action: z.literal('fork'), from: StepId, input: JsonValue.optional(), ...WhoAndWhy });
export type ForkCommand = z.infer<typeof ForkCommand>;
