// Operator control: pause, cancel, retry, skip, resolve, keep. Each is recorded as an event with who
// (--by) and why (--reason), and refused with a clear message when the run or step state does not
// permit it. (Resuming a paused run is `weft resume RUN`.)
import type { Command } from '../command.ts';
import { actOnRun } from '../engine-session.ts';
import { actor } from '../operator.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { readRunInput } from '../run-input.ts';
import { UsageError } from '../usage-error.ts';
import { storeFlagsHelp } from '../store-path.ts';

const common = { store: { type: 'string' }, db: { type: 'string' }, json: { type: 'boolean' }, by: { type: 'string' }, reason: { type: 'string' } } as const;

const one = (positionals: string[], what: string): string[] => {
  const want = what.split(' ').length;
  if (positionals.length !== want) throw new UsageError(`give ${what}`);
  return positionals;
};

// Without --reason the service records its one default reason (engine/service/who-acts.ts).
const why = (reason: string | undefined): { reason?: string } => (reason === undefined ? {} : { reason });
const EXIT = 'Exit status as for weft run; 2 when the run or step state does not permit it (nothing changes then).';

export const pauseCommand: Command = {
  name: 'pause',
  summary: 'pause a run: nothing new starts until it is resumed',
  usage: 'weft pause RUN [--reason TEXT] [--by NAME] [--store URL|PATH | --db PATH] [--json]',
  help: `Pauses RUN: attempts already running finish and are recorded, but no new attempt starts and
timers wait. weft resume RUN continues it.\n\n${storeFlagsHelp(20)}\n\n${EXIT}`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, common);
    const [run] = one(positionals, 'RUN');
    return actOnRun('pause', io, values, values.json === true, run as string, { action: 'pause', by: actor(values.by), ...why(values.reason) });
  },
};

export const continueCommand: Command = {
  name: 'continue',
  summary: 'continue a debug run paused at a breakpoint',
  usage: 'weft continue RUN [--reason TEXT] [--by NAME] [--store URL|PATH | --db PATH] [--json]',
  help: `For a debug run (weft run FILE --break STEP) paused at a breakpoint: the step it paused
before starts, and the run goes on until it ends, waits, or reaches another breakpoint.\n\n${storeFlagsHelp(20)}\n\n${EXIT}`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, common);
    const [run] = one(positionals, 'RUN');
    return actOnRun('continue', io, values, values.json === true, run as string, { action: 'continue', by: actor(values.by), ...why(values.reason) });
  },
};

export const stepCommand: Command = {
  name: 'step',
  summary: 'start the step a debug run is paused at, then pause before the next one',
  usage: 'weft step RUN [--reason TEXT] [--by NAME] [--store URL|PATH | --db PATH] [--json]',
  help: `For a debug run paused at a breakpoint: the step it paused before starts, and the run
pauses again before the next step that starts (whether or not it has a breakpoint).\n\n${storeFlagsHelp(20)}\n\n${EXIT}`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, common);
    const [run] = one(positionals, 'RUN');
    return actOnRun('step', io, values, values.json === true, run as string, { action: 'step', by: actor(values.by), ...why(values.reason) });
  },
};

export const cancelCommand: Command = {
  name: 'cancel',
  summary: 'cancel a run: running attempts are aborted, waiting ones cancelled',
  usage: 'weft cancel RUN [--reason TEXT] [--by NAME] [--store URL|PATH | --db PATH] [--json]',
  help: `Cancels RUN: running attempts get an abort signal (an external attempt aborted this way ends
unknown, on record), waiting steps and open tasks are cancelled, and the run ends cancelled.\n\n${storeFlagsHelp(20)}\n\n${EXIT}`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, common);
    const [run] = one(positionals, 'RUN');
    return actOnRun('cancel', io, values, values.json === true, run as string, { action: 'cancel', by: actor(values.by), ...why(values.reason) });
  },
};

export const retryCommand: Command = {
  name: 'retry',
  summary: 'run a failed, unknown or rejected step again (optionally with a new input)',
  usage: 'weft retry RUN STEP [--input JSON|@file] [--reason TEXT] [--by NAME] [--store URL|PATH | --db PATH] [--json]',
  help: `Starts a new activation of STEP, which is failed, unknown, rejected or cancelled (or held by a
revision, waiting for a decision), with its own attempts; --input replaces the step's resolved
input for it. Retrying an unknown external step, or one a revision holds, is the operator's
decision that repeating the effect is safe.

Before it acts it prints which steps will be billed again, each with what its last attempt cost
("billed again: draft ($0.012, last attempt); about $0.012"); --json adds it as "rebill".\n\n${storeFlagsHelp(20)}\n\n${EXIT}`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { ...common, input: { type: 'string' } });
    const [run, step] = one(positionals, 'RUN STEP');
    const input = values.input === undefined ? {} : { input: readRunInput(values.input, io.cwd) };
    return actOnRun('retry', io, values, values.json === true, run as string, { action: 'retry', step: step as string, ...input, by: actor(values.by), ...why(values.reason) }, { action: 'retry', step: step as string });
  },
};

export const skipCommand: Command = {
  name: 'skip',
  summary: "settle a step with an output a person gives, without running it",
  usage: 'weft skip RUN STEP --output JSON|@file --reason TEXT [--by NAME] [--store URL|PATH | --db PATH] [--json]',
  help: `Settles STEP as succeeded with the given output (checked against its output schema), as
evidence recorded with who and why, and continues the run from it.\n\n${storeFlagsHelp(20)}\n\n${EXIT}`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { ...common, output: { type: 'string' } });
    const [run, step] = one(positionals, 'RUN STEP');
    if (values.output === undefined) throw new UsageError('--output JSON is required: the output the step is taken to have produced');
    if (values.reason === undefined) throw new UsageError('--reason TEXT is required: skipping work needs a why on record');
    const output = readRunInput(values.output, io.cwd, '--output');
    const reason = values.reason;
    return actOnRun('skip', io, values, values.json === true, run as string, { action: 'skip', step: step as string, output, by: actor(values.by), reason });
  },
};

export const resolveCommand: Command = {
  name: 'resolve',
  summary: 'settle an unknown outcome as succeeded or failed, from evidence found outside',
  usage: 'weft resolve RUN STEP --as succeeded|failed [--evidence JSON|@file] [--reason TEXT] [--by NAME] [--store URL|PATH | --db PATH] [--json]',
  help: `For a step whose outcome is unknown: records what a person found out. --as succeeded takes
--evidence as the step's output (checked against its output schema) and routes the success;
--as failed routes the failure.\n\n${storeFlagsHelp(20)}\n\n${EXIT}`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { ...common, as: { type: 'string' }, evidence: { type: 'string' } });
    const [run, step] = one(positionals, 'RUN STEP');
    if (values.as !== 'succeeded' && values.as !== 'failed') throw new UsageError('--as succeeded or --as failed is required');
    const as = values.as;
    const evidence = values.evidence === undefined ? {} : { evidence: readRunInput(values.evidence, io.cwd, '--evidence') };
    return actOnRun('resolve', io, values, values.json === true, run as string, { action: 'resolve', step: step as string, as, ...evidence, by: actor(values.by), ...why(values.reason) });
  },
};

export const keepCommand: Command = {
  name: 'keep',
  summary: 'keep the evidence of a step a revision holds, without repeating its effect',
  usage: 'weft keep RUN STEP [--reason TEXT] [--by NAME] [--store URL|PATH | --db PATH] [--json]',
  help: `For a step that waits for a decision because a revision changed its input after its effect
happened (see weft revise): its earlier evidence stands for the new revision, and the run goes on
from it without repeating the effect. The other choices are weft retry (run it again) and weft
skip (settle it with an output you give).\n\n${storeFlagsHelp(20)}\n\n${EXIT}`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, common);
    const [run, step] = one(positionals, 'RUN STEP');
    return actOnRun('keep', io, values, values.json === true, run as string, { action: 'keep', step: step as string, by: actor(values.by), ...why(values.reason) });
  },
};
