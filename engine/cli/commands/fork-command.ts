// `weft fork RUN --from STEP [--input JSON|@file] [--db PATH] [--json]`: a new run that reuses the
// evidence of every step not downstream of STEP.
import { forkPlan } from '../../runtime/fork-plan.ts';
import { foldRun } from '../../runtime/fold-run.ts';
import type { Command } from '../command.ts';
import { withUserErrors } from '../cli-errors.ts';
import { withEngineSession } from '../engine-session.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { checkRunInput, readRunInput } from '../run-input.ts';
import { printRunOutcome } from '../run-outcome.ts';
import { storePath } from '../store-path.ts';
import { UsageError } from '../usage-error.ts';

export const forkCommand: Command = {
  name: 'fork',
  summary: 'start a new run from a step of an earlier run, reusing the evidence before it',
  usage: 'weft fork RUN --from STEP [--input JSON|@file] [--db PATH] [--json]',
  help: `Starts a new run of RUN's definition version. Every step not downstream of STEP keeps the
evidence it had in RUN (when its input is unchanged); STEP and everything after it run again.
An external step of RUN whose outcome is unknown stays unknown in the fork.

  --input JSON|@file   a different run input (default: RUN's input)

Exit status as for weft run, for the new run.`,

  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { from: { type: 'string' }, input: { type: 'string' }, db: { type: 'string' }, json: { type: 'boolean' } });
    const [run, ...extra] = positionals;
    if (run === undefined || extra.length > 0) throw new UsageError('give exactly one run id');
    if (values.from === undefined) throw new UsageError('--from STEP is required: the first step to run again');
    const from = values.from;
    const dbPath = storePath(values.db, io.cwd);
    return withUserErrors('fork', io, async () => {
      return withEngineSession(dbPath, 'weft fork', async (session) => {
        const source = foldRun(session.store, session.store.resolveRunId(run));
        const input = values.input === undefined ? source.input : readRunInput(values.input, io.cwd);
        await checkRunInput(source.workflow, input);
        const plan = forkPlan(source, from);
        const runId = session.engine.startRun({
          workflow: source.workflow,
          definitionHash: source.definitionHash,
          input,
          workspaceDir: source.workspaceDir,
          forkOf: { runId: source.runId, fromStep: from },
          importEvidence: plan.evidence,
          importUnknowns: plan.unknowns,
        });
        return printRunOutcome(io, runId, await session.engine.settled(runId), values.json === true);
      });
    });
  },
};
