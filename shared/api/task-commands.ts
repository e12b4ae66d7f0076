// A person's answer to a waiting human step (`weft approve|reject|reassign RUN STEP`). The CLI
// has no --reason for approve or reassign, so neither has these; a rejection needs one.
import { z } from 'zod';
import { ActorName, NonBlankText, StepId } from './api-ids.ts';
import { JsonValue } from './json-value.ts';
import { Reason } from './who-and-why.ts';

/**
 * Approves (answers) the task. `data` is checked against the step's form by the engine; a
 * classify task needs `choice`, one of its options.
 *
 * @example
 * ApproveCommand.parse({ action: 'approve', step: 'review', data: { carrier: 'dhl' }, by: 'ana' });
 */
export const ApproveCommand = z.strictObject({
  action: z.literal('approve'),
  step: StepId,
  data: JsonValue.optional(),
  choice: NonBlankText.optional(),
  by: ActorName.optional(),
});
export type ApproveCommand = z.infer<typeof ApproveCommand>;

/** Rejects the task; the reason is kept in the step's output for the rework that follows. */
export const RejectCommand = z.strictObject({ action: z.literal('reject'), step: StepId, reason: Reason, by: ActorName.optional() });
export type RejectCommand = z.infer<typeof RejectCommand>;

/** Gives the task to someone else: `to` must name someone. */
export const ReassignCommand = z.strictObject({ action: z.literal('reassign'), step: StepId, to: ActorName, by: ActorName.optional() });
export type ReassignCommand = z.infer<typeof ReassignCommand>;
