// A workflow's lessons file (shared/lessons/): read it for the editor, `weft lesson list` and
// GET /api/workflows/:id/lessons, and add a lesson learnt from a run. The file sits beside the
// workflow file (`NAME.lessons.json`), so it is versioned with it. A lesson is added only to a
// file that reads as lessons: a broken one is refused with where and how to fix it, never
// written over; the new file is written atomically, formatted for a readable git diff.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../shared-node/atomic-file.ts';
import { AddLessonRequest, type LessonsView } from '../../shared/api/lessons.ts';
import { indexDefinition } from '../../shared/run/definition-index.ts';
import { LESSONS_FORMAT, lessonsFileOf, type Lesson, type LessonsFile } from '../../shared/lessons/lessons-schema.ts';
import { lessonsProblem, parseLessonsText } from '../../shared/lessons/parse-lessons.ts';
import { parseCommand, type CommandInput } from './parse-command.ts';
import { ServiceError } from './service-error.ts';
import type { WorkspaceFiles } from './workspace-files.ts';

/** A lessons file larger than this is not read: lessons are a few KiB each. */
const MAX_LESSONS_BYTES = 4 * 1024 * 1024;

/** The run a lesson is learnt from, as the store has it. */
export interface LessonRun {
  runId: string;
  workflowId: string;
}

/**
 * The lessons of workflow `workflowId` (its file in the workspace), with the problem of a file
 * that does not read as lessons.
 *
 * @example
 * const view = await lessonsView(service.files, 'record-update'); // { file: 'record-update.lessons.json', lessons: [...], problem: null, … }
 */
export async function lessonsView(files: WorkspaceFiles, workflowId: string): Promise<LessonsView> {
  const wf = await files.byId(workflowId);
  const file = lessonsFileOf(wf.file);
  const full = lessonsPath(files, file);
  const base = { workflow: workflowId, file };
  if (!existsSync(full)) return { ...base, exists: false, lessons: [], problem: null };
  const read = readLessons(full, file, workflowId);
  return 'problem' in read ? { ...base, exists: true, lessons: [], problem: read.problem } : { ...base, exists: true, lessons: read.file.lessons, problem: null };
}

/**
 * Records a lesson learnt from `run` in its workflow's lessons file (created when it is the
 * first), after checking that the run is of that workflow and that each step is one of the
 * workflow file's steps. Refuses, writing nothing, a file that does not read as lessons.
 *
 * @example
 * await addLesson(service.files, { runId: 'r8x2', workflowId: 'record-update' }, { runId: 'r8x2', steps: ['write'], failureMode: '…', changed: '…' }, 'ana', Date.now());
 */
export async function addLesson(files: WorkspaceFiles, run: LessonRun, request: CommandInput<typeof AddLessonRequest>, actor: string, nowMs: number): Promise<LessonsView & { lesson: Lesson }> {
  const r = parseCommand(AddLessonRequest, request, 'the lesson');
  const wf = await files.byId(run.workflowId);
  if (wf.workflow === undefined) throw new ServiceError('refused', `${wf.file} does not read as a workflow; fix it first (weft validate ${wf.file}); no lesson was recorded`);
  const steps = indexDefinition(wf.workflow).steps;
  const unknown = r.steps.filter((s) => !steps.has(s));
  if (unknown.length > 0) {
    throw new ServiceError('bad-input', `workflow "${run.workflowId}" (${wf.file}) has no step ${unknown.map((s) => `"${s}"`).join(', ')}; its steps are ${[...steps.keys()].join(', ')}; no lesson was recorded`, 'steps');
  }
  const file = lessonsFileOf(wf.file);
  const full = lessonsPath(files, file);
  let current: LessonsFile = { format: LESSONS_FORMAT, workflow: run.workflowId, lessons: [] };
  if (existsSync(full)) {
    const read = readLessons(full, file, run.workflowId);
    if ('problem' in read) throw new ServiceError('refused', `${read.problem}; the file was left as it is and no lesson was recorded`);
    current = read.file;
  }
  const next = current.lessons.reduce((n, l) => Math.max(n, Number(l.id.slice(1))), 0) + 1;
  const lesson: Lesson = { id: `L${next}`, failureMode: r.failureMode, changed: r.changed, runId: run.runId, steps: [...new Set(r.steps)], by: r.by ?? actor, at: new Date(nowMs).toISOString() };
  const written: LessonsFile = { ...current, lessons: [...current.lessons, lesson] };
  writeFileAtomic(full, `${JSON.stringify(written, null, 2)}\n`);
  return { workflow: run.workflowId, file, exists: true, lessons: written.lessons, problem: null, lesson };
}

/** Where the lessons file is: one that exists must stay inside the workspace (no symlink out); a new one goes beside its workflow file. */
function lessonsPath(files: WorkspaceFiles, file: string): string {
  const beside = join(files.root, file);
  return existsSync(beside) ? files.resolveInside(file) : beside;
}

function readLessons(full: string, file: string, workflowId: string): { file: LessonsFile } | { problem: string } {
  let text: string;
  try {
    const bytes = readFileSync(full);
    if (bytes.length > MAX_LESSONS_BYTES) return { problem: `${file} is ${bytes.length.toLocaleString('en-US')} bytes; a lessons file is a few KiB: check that it is the right file` };
    text = bytes.toString('utf8');
  } catch (e) {
    throw new ServiceError('internal', `cannot read ${file}: ${(e as Error).message}`);
  }
  const parsed = parseLessonsText(text);
  if (!parsed.ok) return { problem: lessonsProblem(file, parsed.diagnostics) };
  if (parsed.file.workflow !== workflowId) return { problem: `${file}: $.workflow: it names workflow "${parsed.file.workflow}", but the file beside it is workflow "${workflowId}"; set "workflow" to "${workflowId}", or move the file beside its own workflow` };
  return { file: parsed.file };
}
