// Starting a run (`POST /api/runs`, `weft run FILE`): which workflow, which input, and the
// optional idempotency key, queue priority and budget. The answer is a RunOutcome.
import { z } from 'zod';
import { MAX_ID_LENGTH, NonBlankText, StepId, WorkflowId } from './api-ids.ts';
import { JsonValue } from './json-value.ts';

/**
 * Start a run of a workspace workflow. Without `version`, the workspace file's version runs;
 * with one, that stored version. A `key` already used by a run of the workflow starts nothing
 * and answers that run (idempotent creation, `weft run --key`).
 *
 * @example
 * StartRunCommand.parse({ workflow: 'order-payment', input: { orderId: 'A17' }, key: 'A17' });
 */
export const StartRunCommand = z.strictObject({
  workflow: WorkflowId,
  version: z.number().int().positive().optional(),
  input: JsonValue,
  key: NonBlankText.max(MAX_ID_LENGTH, `a key is at most ${MAX_ID_LENGTH} characters`).optional(),
  /** Order among runs queued by limits.maxParallelRuns, higher first (`--priority`). */
  priority: z.number().int().optional(),
  /**
   * The most this run may spend (`--budget`, docs/budgets.md), in the policy's currency; the
   * smallest of it, the definition's limits.budget and the policy's budgets.perRun applies.
   */
  budget: z.number().nonnegative('a budget is an amount of 0 or more').optional(),
  /**
   * Makes the run a debug run: it pauses before each step of `breakpoints` starts (`--break`), and
   * settles each step of `pins` with the output given, without calling it (`--pin`).
   */
  debug: z.strictObject({ breakpoints: z.array(StepId).optional(), pins: z.record(StepId, JsonValue).optional() }).optional(),
});
export type StartRunDebug = NonNullable<StartRunCommand['debug']>;
export type StartRunCommand = z.infer<typeof StartRunCommand>;
