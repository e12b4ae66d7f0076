// An operator's decision about one step of a run: retry it, skip it with a given output, resolve
// its unknown outcome, or keep its earlier evidence after a revision changed its input
// (`weft retry|skip|resolve|keep RUN STEP`). Whether the step's state permits it is the engine's
// call (RunDetail's permittedActions say in advance); these schemas check only the shape.
import { z } from 'zod';
import { StepId } from './api-ids.ts';
import { JsonValue } from './json-value.ts';
import { Reason, WhoAndWhy } from './who-and-why.ts';

/**
 * A new activation of a failed, unknown, rejected or cancelled step; `input` replaces its
 * resolved input for that activation (`--input`). `input: null` is an input, not "none".
 *
 * @example
 * RetryCommand.parse({ action: 'retry', step: 'verify', by: 'ana', reason: 'API is back' });
 */
export const RetryCommand = z.strictObject({ action: z.literal('retry'), step: StepId, input: JsonValue.optional(), ...WhoAndWhy });
export type RetryCommand = z.infer<typeof RetryCommand>;

/**
 * Settles the step as succeeded with an output a person gives, checked against its output
 * schema by the engine. Skipping work needs a why on record, so `reason` is required.
 */
export const SkipCommand = z.strictObject({ action: z.literal('skip'), step: StepId, output: JsonValue, ...WhoAndWhy, reason: Reason });
export type SkipCommand = z.infer<typeof SkipCommand>;

/**
 * Settles an unknown outcome from what a person found out. With `as: 'succeeded'`, `evidence`
 * is taken as the step's output (`--evidence`).
 */
export const ResolveCommand = z.strictObject({
  action: z.literal('resolve'),
  step: StepId,
  as: z.enum(['succeeded', 'failed'], { error: 'give "as": "succeeded" or "failed" (what the step really did)' }),
  evidence: JsonValue.optional(),
  ...WhoAndWhy,
});
export type ResolveCommand = z.infer<typeof ResolveCommand>;

/**
 * Keeps the evidence an external step earned under an earlier input revision, when a revision
 * changed its input after its effect happened (issue 9: the step waits for this decision).
 */
export const KeepCommand = z.strictObject({ action: z.literal('keep'), step: StepId, ...WhoAndWhy });
export type KeepCommand = z.infer<typeof KeepCommand>;
