// The body of `POST /api/tasks/:runId/:stepId`: a person approves, rejects or reassigns the task.
// The step is the route's :stepId, so the body carries the command without its `step`.
import { z } from 'zod';
import { ApproveCommand, ReassignCommand, RejectCommand } from './task-commands.ts';

/** Every `action` the task route takes. */
export const TASK_ACTIONS = ['approve', 'reject', 'reassign'] as const;
export type TaskActionName = (typeof TASK_ACTIONS)[number];

/**
 * A person's answer to one task.
 *
 * @example
 * TaskAction.parse({ action: 'reject', reason: 'cite the source', by: 'ana' });
 */
export const TaskAction = z.discriminatedUnion(
  'action',
  [ApproveCommand.omit({ step: true }), RejectCommand.omit({ step: true }), ReassignCommand.omit({ step: true })],
  { error: (iss) => (iss.code === 'invalid_union' ? `unknown action; give "action" as one of ${TASK_ACTIONS.join(', ')}` : undefined) },
);
export type TaskAction = z.infer<typeof TaskAction>;
