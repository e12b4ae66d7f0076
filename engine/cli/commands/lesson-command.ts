// `weft lesson add RUN …` and `weft lesson list WORKFLOW`: a workflow's lessons, recorded from a
// run against the steps they concern and kept beside the workflow file (NAME.lessons.json), so
// they are versioned in git with it. The run is read from the store opened read-only; the file is
// the workspace's (engine/service/lessons-service.ts), written atomically, never over a file that
// does not read as lessons.
import { resolve } from 'node:path';
import type { Command } from '../command.ts';
import type { CliIo } from '../cli-io.ts';
import { withUserErrors } from '../cli-errors.ts';
import { withReadOnlyStore } from '../engine-session.ts';
import { EXIT_OK, EXIT_USAGE } from '../exit-codes.ts';
import { actor } from '../operator.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { UsageError } from '../usage-error.ts';
import type { Lesson, LessonsFile } from '../../../shared/lessons/lessons-schema.ts';
import { storeFlagsHelp } from '../store-path.ts';

const USAGE_ADD = 'weft lesson add RUN --steps STEP[,STEP…] --failure-mode TEXT --changed TEXT [--by NAME] [--workspace DIR] [--store URL|PATH | --db PATH] [--json]';
const USAGE_LIST = 'weft lesson list WORKFLOW [--workspace DIR] [--json]';

export const lessonCommand: Command = {
  name: 'lesson',
  summary: "record what a run taught about a workflow, or list a workflow's lessons",
  usage: `${USAGE_ADD}\n       ${USAGE_LIST}`,
  help: `A lesson records a failure mode a run showed and what was changed because of it, against
the steps it concerns. Lessons are kept beside the workflow file, NAME.lessons.json next to
NAME.weft.json, so they are versioned in git with it; the editor shows them on their steps and
before a save that changes one of those steps.

  add RUN            record a lesson from RUN (an id or unique prefix) on its workflow's file
    --steps A,B      the steps of the workflow it concerns (at least one)
    --failure-mode   what went wrong, as a person would spot it next time
    --changed        what was changed because of it (the workflow, a prompt, a runbook)
    --by NAME        who records it (default $WEFT_USER, else $USER)
  list WORKFLOW      the lessons of the workflow with that id, oldest first
  --workspace DIR    the folder of the workflow files (default: this folder)
${storeFlagsHelp(21)}
  --json             add: the lesson and its file; list: {"workflow","file","lessons"}

Exit status 0; 2 for an unknown run, workflow or step, a blank or too long text, or a lessons
file that does not read as lessons (it is left as it is; the message says where and how to fix it).`,
  async run(args, io) {
    const [sub, ...rest] = args;
    if (sub === 'add') return add(rest, io);
    if (sub === 'list') return list(rest, io);
    throw new UsageError(sub === undefined ? 'give add or list' : `unknown subcommand "${sub}"; give add or list`);
  },
};

async function add(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs([...args], {
    steps: { type: 'string' },
    'failure-mode': { type: 'string' },
    changed: { type: 'string' },
    by: { type: 'string' },
    workspace: { type: 'string' },
    store: { type: 'string' },
    db: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (positionals.length !== 1) throw new UsageError('give the RUN the lesson was learnt from');
  const steps = values.steps?.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (steps === undefined || steps.length === 0) throw new UsageError('--steps STEP[,STEP…] is required: the steps the lesson concerns');
  if (values['failure-mode'] === undefined) throw new UsageError('--failure-mode TEXT is required: what went wrong');
  if (values.changed === undefined) throw new UsageError('--changed TEXT is required: what was changed because of it');
  const request = { runId: positionals[0] as string, steps, failureMode: values['failure-mode'], changed: values.changed, by: actor(values.by) };
  const workspace = resolve(io.cwd, values.workspace ?? '.');
  return withReadOnlyStore('lesson', io, values, async (reader) => {
    const [{ addLesson }, { WorkspaceFiles }] = await Promise.all([import('../../service/lessons-service.ts'), import('../../service/workspace-files.ts')]);
    const run = reader.lessonRun(request.runId);
    const { lesson, file } = await addLesson(new WorkspaceFiles(workspace), run, request, request.by, Date.now());
    if (values.json === true) io.stdout.write(`${JSON.stringify({ file, lesson })}\n`);
    else io.stdout.write(`lesson ${lesson.id} recorded in ${file} (steps ${lesson.steps.join(', ')}; from run ${lesson.runId})\n`);
    return EXIT_OK;
  });
}

async function list(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs([...args], { workspace: { type: 'string' }, json: { type: 'boolean' } });
  if (positionals.length !== 1) throw new UsageError('give the WORKFLOW id whose lessons to list');
  const workspace = resolve(io.cwd, values.workspace ?? '.');
  return withUserErrors('lesson', io, async () => {
    const [{ lessonsView }, { WorkspaceFiles }] = await Promise.all([import('../../service/lessons-service.ts'), import('../../service/workspace-files.ts')]);
    const view = await lessonsView(new WorkspaceFiles(workspace), positionals[0] as string);
    if (view.problem !== null) {
      io.stderr.write(`weft lesson: ${view.problem}\n`);
      return EXIT_USAGE;
    }
    const out: Pick<LessonsFile, 'workflow' | 'lessons'> & { file: string } = { workflow: view.workflow, file: view.file, lessons: view.lessons };
    if (values.json === true) io.stdout.write(`${JSON.stringify(out)}\n`);
    else io.stdout.write(view.lessons.length === 0 ? `no lessons recorded for ${view.workflow} (${view.file} would hold them)\n` : view.lessons.map(lessonText).join('\n'));
    return EXIT_OK;
  });
}

/** One lesson as a person reads it, a blank line after it. */
function lessonText(l: Lesson): string {
  return `${l.id}  ${l.at.slice(0, 10)} by ${l.by}  steps: ${l.steps.join(', ')}  run: ${l.runId}\n    failure mode: ${l.failureMode}\n    changed:      ${l.changed}\n`;
}
