// `weft revise RUN --input JSON|@file [--db PATH] [--json]`: a new input revision for a run.
import { StoreError } from '../../store/store-error.ts';
import type { Command } from '../command.ts';
import { withUserErrors } from '../cli-errors.ts';
import { withEngineSession } from '../engine-session.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { checkRunInput, readRunInput } from '../run-input.ts';
import { printRunOutcome } from '../run-outcome.ts';
import { storePath } from '../store-path.ts';
import { UsageError } from '../usage-error.ts';

export const reviseCommand: Command = {
  name: 'revise',
  summary: "add an input revision to a run; only what depends on changed input runs again",
  usage: 'weft revise RUN --input JSON|@file [--db PATH] [--json]',
  help: `Gives RUN a new input (input revision N+1) and continues it. Each step's evidence records
the hash of the input it covered: a step whose resolved input is unchanged keeps its evidence,
one whose input changed runs again, and an external step whose earlier attempt with the same
input is unknown stays unknown (it is never repeated blindly). Earlier attempts stay on record.

Exit status as for weft run.`,

  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { input: { type: 'string' }, db: { type: 'string' }, json: { type: 'boolean' } });
    const [run, ...extra] = positionals;
    if (run === undefined || extra.length > 0) throw new UsageError('give exactly one run id');
    if (values.input === undefined) throw new UsageError('--input is required: the new run input, as JSON or @file');
    const dbPath = storePath(values.db, io.cwd);
    return withUserErrors('revise', io, async () => {
      const input = readRunInput(values.input, io.cwd);
      return withEngineSession(dbPath, 'weft revise', async (session) => {
        const id = session.store.resolveRunId(run);
        // Checked against the run's definition before the engine loads (and so recovers) the run.
        const row = session.store.getRun(id);
        const def = row === undefined ? undefined : session.store.loadDefinition(row.workflowId, row.version);
        if (def === undefined) throw new StoreError('io', `the definition snapshot of run ${id} is missing; the store is damaged`);
        await checkRunInput(def.workflow, input);
        session.engine.load(id);
        session.engine.revise(id, input);
        return printRunOutcome(io, id, await session.engine.settled(id), values.json === true);
      });
    });
  },
};
