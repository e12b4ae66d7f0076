// `weft fork RUN --from STEP [--input JSON|@file] [--store URL|PATH | --db PATH] [--json]`: a new
// run that reuses the evidence of every step not downstream of STEP.
import type { Command } from '../command.ts';
import { actOnRun } from '../engine-session.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { readRunInput } from '../run-input.ts';
import { UsageError } from '../usage-error.ts';
import { storeFlagsHelp } from '../store-path.ts';

export const forkCommand: Command = {
  name: 'fork',
  summary: 'start a new run from a step of an earlier run, reusing the evidence before it',
  usage: 'weft fork RUN --from STEP [--input JSON|@file] [--store URL|PATH | --db PATH] [--json]',
  help: `Starts a new run of RUN's definition version. Every step not downstream of STEP keeps the
evidence it had in RUN (when its input is unchanged); STEP and everything after it run again.
An external step of RUN whose outcome is unknown stays unknown in the fork.

  --input JSON|@file   a different run input (default: RUN's input)

Before it acts it prints which steps will be billed again, each with what its last attempt in
RUN cost ("billed again: draft ($0.012, last attempt); about $0.012"); --json adds "rebill".

${storeFlagsHelp(20)}

Exit status as for weft run, for the new run.`,

  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { from: { type: 'string' }, input: { type: 'string' }, store: { type: 'string' }, db: { type: 'string' }, json: { type: 'boolean' } });
    const [run, ...extra] = positionals;
    if (run === undefined || extra.length > 0) throw new UsageError('give exactly one run id');
    if (values.from === undefined) throw new UsageError('--from STEP is required: the first step to run again');
    const from = values.from;
    // The input is read (and refused) before the store is opened.
    const input = values.input === undefined ? {} : { input: readRunInput(values.input, io.cwd) };
    return actOnRun('fork', io, values, values.json === true, run, { action: 'fork', from, ...input }, { action: 'fork', step: from });
  },
};
