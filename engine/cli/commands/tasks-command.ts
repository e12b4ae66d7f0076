// `weft tasks [--store URL|PATH | --db PATH] [--json]`: the open tasks for people, across runs.
import type { Command } from '../command.ts';
import { withReadOnlyStore } from '../engine-session.ts';
import { EXIT_OK } from '../exit-codes.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { UsageError } from '../usage-error.ts';
import { storeFlagsHelp } from '../store-path.ts';

export const tasksCommand: Command = {
  name: 'tasks',
  summary: 'list tasks waiting for a person, across runs',
  usage: 'weft tasks [--store URL|PATH | --db PATH] [--json]',
  help: `Lists every open task: run, step, kind of task, title, assignee, deadline and whether it has
passed its deadline and escalated. Answer one with weft approve or weft reject.

${storeFlagsHelp(11)}
  --json   print {"tasks":[{"runId","stepId","task","title","instructions","assignee","deadline","escalated","form","options"}]}`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { store: { type: 'string' }, db: { type: 'string' }, json: { type: 'boolean' } });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    return withReadOnlyStore('tasks', io, values, async (reader) => {
      // The rows as `weft tasks --json` has always printed them (the API's TaskSummary adds times).
      const tasks = reader.openTasks().map((t) => ({ runId: t.runId, stepId: t.stepId, task: t.task, title: t.title, instructions: t.instructions, assignee: t.assignee, deadline: t.deadline, escalated: t.escalated, form: t.form, options: t.options, ...(t.debug === true ? { debug: true as const } : {}) }));
      if (values.json === true) io.stdout.write(`${JSON.stringify({ tasks })}\n`);
      else if (tasks.length === 0) io.stdout.write('no open tasks\n');
      else for (const t of tasks) io.stdout.write(`${t.runId} ${t.stepId}  ${t.task}: ${t.title}  (${t.assignee ?? 'anyone'}${t.deadline === null ? '' : `, due ${t.deadline}`}${t.escalated ? ', ESCALATED' : ''}${t.debug === true ? ', debug run' : ''})\n`);
      return EXIT_OK;
    });
  },
};
