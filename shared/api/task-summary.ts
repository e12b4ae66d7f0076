// An open task for a person, as `weft tasks --json` lists it (`GET /api/tasks`, and RunDetail's
// tasks). TaskSummary adds epoch-ms times to today's row.
import { z } from 'zod';
import { HUMAN_TASKS } from '../definition/names.ts';

/** One row of `weft tasks --json` today. */
export const TaskRow = z.strictObject({
  runId: z.string(),
  stepId: z.string(),
  task: z.enum(HUMAN_TASKS),
  title: z.string(),
  instructions: z.string().nullable(),
  assignee: z.string().nullable(),
  deadline: z.iso.datetime().nullable(),
  /** The deadline passed and the task escalated: it waits for a person still. */
  escalated: z.boolean(),
  /** JSON Schema the answer (approve's data) must match. */
  form: z.record(z.string(), z.unknown()).nullable(),
  /** The options of a classify task (approve's choice). */
  options: z.array(z.string()).nullable(),
  /** Only on a task of a debug run. */
  debug: z.literal(true).optional(),
});
export type TaskRow = z.infer<typeof TaskRow>;

/** What `weft tasks --json` prints. */
export const TasksJson = z.strictObject({ tasks: z.array(TaskRow) });

/**
 * An open task, as the API serves it.
 *
 * @example
 * TaskSummary.parse({ ...row, openedAtMs: 1764585146442, deadlineAtMs: null });
 */
export const TaskSummary = TaskRow.extend({
  activation: z.number().int().positive(),
  openedAtMs: z.number(),
  deadlineAtMs: z.number().nullable(),
});
export type TaskSummary = z.infer<typeof TaskSummary>;

/** The answer of `GET /api/tasks`. */
export const TaskList = z.strictObject({ tasks: z.array(TaskSummary) });
export type TaskList = z.infer<typeof TaskList>;
