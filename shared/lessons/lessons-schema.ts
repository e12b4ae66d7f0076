// A workflow's lessons (docs/long-running.md, "Notes and lessons"): what a run taught about how
// the workflow fails, and what was changed because of it, recorded against the steps concerned.
// They live in the workspace beside the workflow, `NAME.lessons.json` next to `NAME.weft.json`,
// so they are versioned in git with it and reviewed before the workflow is changed (the editor
// shows them on their steps and before a save that changes one).
import { z } from 'zod';
import { STEP_ID_PATTERN, WORKFLOW_ID_PATTERN } from '../definition/names.ts';

// The file's own field rules (shared/api's request ids import this file's schema, not the other way round).
const NonBlankText = z.string().regex(/\S/, 'must not be empty or only spaces');
const ActorName = NonBlankText.max(200, 'a name is at most 200 characters');
const StepId = z.string().max(200).regex(STEP_ID_PATTERN, 'a step id is a name such as "verify_payment" (letters, digits, _; not starting with a digit)');
const WorkflowId = z.string().max(200).regex(WORKFLOW_ID_PATTERN, 'a workflow id is a slug such as "order-payment"');

export const LESSONS_FORMAT = 'weft-lessons/v1';

/** Longest failure mode or change: a paragraph; the run linked to tells the rest. */
export const MAX_LESSON_TEXT = 2000;

/** The file of a workflow file's lessons: `a/b.weft.json` → `a/b.lessons.json`. */
export function lessonsFileOf(workflowFile: string): string {
  return `${workflowFile.replace(/\.weft\.json$/, '')}.lessons.json`;
}

const LessonText = (what: string) => NonBlankText.max(MAX_LESSON_TEXT, `${what} is at most ${MAX_LESSON_TEXT} characters; link the run for the rest`);

/**
 * One lesson: the failure mode a run showed, what was changed because of it, the run, the steps
 * it concerns (of the workflow's definition), who recorded it and when (ISO time).
 *
 * @example
 * Lesson.parse({ id: 'L1', failureMode: 'the API answers 200 with an error body', changed: 'accept checks ok', runId: 'r8x2', steps: ['write'], by: 'ana', at: '2026-12-03T10:00:00.000Z' });
 */
export const Lesson = z.strictObject({
  id: z.string().regex(/^L[1-9][0-9]*$/, 'a lesson id is L and a number (L1, L2, …), given when it is recorded'),
  failureMode: LessonText('a failure mode'),
  changed: LessonText('what was changed'),
  runId: z.string().min(1, 'give the run the lesson was learnt from').max(200),
  steps: z.array(StepId).min(1, 'name at least one step the lesson concerns'),
  by: ActorName,
  at: z.iso.datetime({ error: 'give the time as an ISO date-time, such as 2026-12-03T10:00:00.000Z' }),
});
export type Lesson = z.infer<typeof Lesson>;

/**
 * A `NAME.lessons.json` file: the workflow's id and its lessons, oldest first.
 *
 * @example
 * LessonsFile.parse({ format: 'weft-lessons/v1', workflow: 'record-update', lessons: [] });
 */
export const LessonsFile = z.strictObject({
  format: z.literal(LESSONS_FORMAT, { error: `give "format": "${LESSONS_FORMAT}"` }),
  workflow: WorkflowId,
  lessons: z.array(Lesson),
});
export type LessonsFile = z.infer<typeof LessonsFile>;

/** The lessons that concern `stepId`, oldest first. */
export function lessonsOfStep(lessons: readonly Lesson[], stepId: string): Lesson[] {
  return lessons.filter((l) => l.steps.includes(stepId));
}
