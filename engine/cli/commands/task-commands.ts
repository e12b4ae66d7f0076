// `weft approve`, `weft reject`, `weft reassign`: a person's answer to a waiting human step.
import type { Command } from '../command.ts';
import { answerTask } from '../engine-session.ts';
import { actor } from '../operator.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { readRunInput } from '../run-input.ts';
import { UsageError } from '../usage-error.ts';
import { storeFlagsHelp } from '../store-path.ts';

const common = { store: { type: 'string' }, db: { type: 'string' }, json: { type: 'boolean' }, by: { type: 'string' } } as const;

function runAndStep(positionals: string[]): [string, string] {
  const [run, step, ...extra] = positionals;
  if (run === undefined || step === undefined || extra.length > 0) throw new UsageError('give a run id and a step id');
  return [run, step];
}

export const approveCommand: Command = {
  name: 'approve',
  summary: 'approve (answer) a task waiting for a person',
  usage: 'weft approve RUN STEP [--data JSON|@file] [--choice OPTION] [--by NAME] [--store URL|PATH | --db PATH] [--json]',
  help: `Completes the waiting human step STEP of RUN with an approval. --data is the answer, checked
against the step's form (a JSON Schema); a classify task needs --choice with one of its options.
The run then continues until it ends or waits again.

  --by NAME   who decides (default $WEFT_USER, else $USER, else the OS user)

${storeFlagsHelp(20)}

Exit status as for weft run; 2 when the step is not waiting for a person or the answer does not
match the form (nothing is recorded then).`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { ...common, data: { type: 'string' }, choice: { type: 'string' } });
    const [run, step] = runAndStep(positionals);
    const data = values.data === undefined ? undefined : readRunInput(values.data, io.cwd, '--data');
    return answerTask('approve', io, values, values.json === true, run, step, { action: 'approve', by: actor(values.by), ...(data === undefined ? {} : { data }), ...(values.choice === undefined ? {} : { choice: values.choice }) });
  },
};

export const rejectCommand: Command = {
  name: 'reject',
  summary: 'reject a task waiting for a person, with a reason',
  usage: 'weft reject RUN STEP --reason TEXT [--by NAME] [--store URL|PATH | --db PATH] [--json]',
  help: `Completes the waiting human step STEP of RUN with a rejection. The reason is kept in the
step's output (steps.STEP.output.reason), so a rework step or the next activation can read it;
the run follows the step's "rejected" edges.

${storeFlagsHelp(20)}

Exit status as for weft run; 2 when the step is not waiting for a person.`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { ...common, reason: { type: 'string' } });
    const [run, step] = runAndStep(positionals);
    if (values.reason === undefined || values.reason.trim() === '') throw new UsageError('--reason TEXT is required: say why, so the next attempt can do better');
    const reason = values.reason;
    return answerTask('reject', io, values, values.json === true, run, step, { action: 'reject', by: actor(values.by), reason });
  },
};

export const reassignCommand: Command = {
  name: 'reassign',
  summary: 'give a waiting task to someone else',
  usage: 'weft reassign RUN STEP --to NAME [--by NAME] [--store URL|PATH | --db PATH] [--json]',
  help: `Changes the assignee of the waiting human step STEP of RUN. Recorded with who did it.

${storeFlagsHelp(20)}`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { ...common, to: { type: 'string' } });
    const [run, step] = runAndStep(positionals);
    if (values.to === undefined) throw new UsageError('--to NAME is required');
    if (values.to.trim() === '') throw new UsageError('--to needs a name: who the task goes to (an empty one would leave it with no one)');
    const to = values.to;
    return answerTask('reassign', io, values, values.json === true, run, step, { action: 'reassign', to, by: actor(values.by) });
  },
};
