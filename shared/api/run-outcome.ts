// What a command that drives a run answers: the run and the state it was left in, the same
// `{"runId","state"}` that `weft run --json` and the operator commands print.
import { z } from 'zod';
import { RUN_STATES } from '../definition/names.ts';
import { RebillEstimate } from '../cost/rebill-estimate.ts';

/**
 * The run a command acted on (or started) and its state afterwards.
 *
 * @example
 * RunOutcome.parse({ runId: 'rmx4k5mb02ob85v', state: 'waiting' });
 */
export const RunOutcome = z.strictObject({
  runId: z.string().min(1),
  state: z.enum(RUN_STATES),
  /** `weft fork` and the operator commands that run steps again: which steps bill again, and about how much (docs/runs.md, "Billed again"). */
  rebill: RebillEstimate.optional(),
});
export type RunOutcome = z.infer<typeof RunOutcome>;
