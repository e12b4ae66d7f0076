// A workflow's lessons over the API (docs/api.md, "Lessons"; docs/long-running.md): the lessons
// file beside the workflow as it is, and a new lesson recorded from a run. The file is the
// workspace's, kept in git; the server never writes over one it cannot read.
import { z } from 'zod';
import { Lesson, MAX_LESSON_TEXT } from '../lessons/lessons-schema.ts';
import { ActorName, NonBlankText, RunId, StepId } from './api-ids.ts';

/**
 * `GET /api/workflows/:id/lessons`, and the answer of a new lesson. A file that does not read as
 * lessons is shown, not hidden: `problem` says where and how to fix it, and `lessons` is empty.
 *
 * @example
 * { workflow: 'record-update', file: 'record-update.lessons.json', exists: true, lessons: [{ id: 'L1', … }], problem: null }
 */
export const LessonsView = z.strictObject({
  workflow: z.string().describe('the workflow id'),
  file: z.string().describe('the lessons file, relative to the workspace: NAME.lessons.json beside NAME.weft.json'),
  exists: z.boolean().describe('false: no lesson was recorded yet'),
  lessons: z.array(Lesson).describe('oldest first'),
  problem: z.string().nullable().describe('why the file does not read as lessons (line and column or JSON path, and the fix); null when it does'),
});
export type LessonsView = z.infer<typeof LessonsView>;

const Text = (what: string) => NonBlankText.max(MAX_LESSON_TEXT, `${what} is at most ${MAX_LESSON_TEXT} characters; link the run for the rest`);

/**
 * `POST /api/workflows/:id/lessons`, and `weft lesson add RUN`: a lesson learnt from run `runId`
 * (an id or unique prefix) of the workflow, about `steps` of its definition.
 *
 * @example
 * AddLessonRequest.parse({ runId: 'r8x2', steps: ['write'], failureMode: 'the API answers 200 with an error body', changed: 'accept checks ok', by: 'ana' });
 */
export const AddLessonRequest = z.strictObject({
  runId: RunId,
  steps: z.array(StepId).min(1, 'name at least one step the lesson concerns'),
  failureMode: Text('a failure mode'),
  changed: Text('what was changed'),
  by: ActorName.optional(),
});
export type AddLessonRequest = z.infer<typeof AddLessonRequest>;
