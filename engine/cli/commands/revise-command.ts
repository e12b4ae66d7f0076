// `weft revise RUN --input JSON|@file [--dry-run] [--db PATH] [--json]`: a new input revision for
// a run. The plan (what runs again, what keeps its evidence, what waits for a decision) is printed
// before the revision acts; --dry-run prints only the plan and changes nothing.
import type { RevisePlan } from '../../../shared/api/input-commands.ts';
import type { RunState } from '../../../shared/definition/names.ts';
import type { Workflow } from '../../../shared/definition/workflow-schema.ts';
import type { RevisionPlan } from '../../runtime/revision-plan.ts';
import { StoreError } from '../../store/store-error.ts';
import type { Store } from '../../store/store.ts';
import type { Command } from '../command.ts';
import { withUserErrors } from '../cli-errors.ts';
import { openReadOnlyStore, withEngineSession } from '../engine-session.ts';
import { EXIT_OK } from '../exit-codes.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { formatRevisionPlan } from '../revision-plan-text.ts';
import { checkRunInput, readRunInput } from '../run-input.ts';
import { printRunOutcome } from '../run-outcome.ts';
import { storePath } from '../store-path.ts';
import { UsageError } from '../usage-error.ts';

export const reviseCommand: Command = {
  name: 'revise',
  summary: "add an input revision to a run; only what depends on changed input runs again",
  usage: 'weft revise RUN --input JSON|@file [--dry-run] [--db PATH] [--json]',
  help: `Gives RUN a new input (input revision N+1) and continues it. Each step's evidence records
the hash of the input it covered: a step whose resolved input is unchanged keeps its evidence,
one whose input changed runs again, and an external step whose earlier attempt with the same
input is unknown stays unknown (it is never repeated blindly). An external step whose input
changed after its effect happened waits for a decision (its onRevise, default "ask"): weft retry
runs it again, weft keep keeps its evidence, weft skip settles it with a given output. Earlier
attempts stay on record.

Before it acts, it prints the plan: which steps run again, which keep their evidence, which wait
for a decision, and which are decided only when the steps before them have settled.

  --dry-run   print the plan and change nothing
  --json      print {"runId","state","inputRevision","plan":[{"stepId","kind","action","reason"}]}
              (with --dry-run also "dryRun": true; actions: rerun, reuse, keep, ask, carry, later)

Exit status as for weft run; 0 for --dry-run.`,

  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { input: { type: 'string' }, db: { type: 'string' }, json: { type: 'boolean' }, 'dry-run': { type: 'boolean' } });
    const [run, ...extra] = positionals;
    if (run === undefined || extra.length > 0) throw new UsageError('give exactly one run id');
    if (values.input === undefined) throw new UsageError('--input is required: the new run input, as JSON or @file');
    const json = values.json === true;
    const dbPath = storePath(values.db, io.cwd);
    return withUserErrors('revise', io, async () => {
      const input = readRunInput(values.input, io.cwd);
      if (values['dry-run'] === true) {
        const { store, close } = await openReadOnlyStore(dbPath);
        try {
          const id = store.resolveRunId(run);
          const { plan, state } = await planFor(store, id, input);
          const answer: RevisePlan = { runId: id, state, dryRun: true, inputRevision: plan.inputRevision, plan: plan.steps };
          io.stdout.write(json ? `${JSON.stringify(answer)}\n` : `${formatRevisionPlan(id, plan)}dry run: nothing was changed\n`);
          return EXIT_OK;
        } finally {
          close();
        }
      }
      return withEngineSession(dbPath, 'weft revise', async (session) => {
        const id = session.store.resolveRunId(run);
        // Planned and checked from the log before the engine loads (and so recovers) the run.
        const { plan } = await planFor(session.store, id, input);
        session.engine.load(id);
        session.engine.revise(id, input);
        if (!json) io.stdout.write(formatRevisionPlan(id, plan));
        return printRunOutcome(io, id, await session.engine.settled(id), json, { inputRevision: plan.inputRevision, plan: plan.steps });
      });
    });
  },
};

/** The run's definition, the new input checked against it, and the plan of the revision. */
async function planFor(store: Store, id: string, input: unknown): Promise<{ plan: RevisionPlan; state: RunState }> {
  const row = store.getRun(id);
  const def: { workflow: Workflow } | undefined = row === undefined ? undefined : store.loadDefinition(row.workflowId, row.version);
  if (def === undefined) throw new StoreError('io', `the definition snapshot of run ${id} is missing; the store is damaged`);
  await checkRunInput(def.workflow, input);
  const [{ foldRun }, { indexDefinition }, { planRevision }] = await Promise.all([
    import('../../runtime/fold-run.ts'),
    import('../../../shared/run/definition-index.ts'),
    import('../../runtime/revision-plan.ts'),
  ]);
  const model = foldRun(store, id);
  return { plan: await planRevision(model, indexDefinition(model.workflow), input), state: model.state };
}
