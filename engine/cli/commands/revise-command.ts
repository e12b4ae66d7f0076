// `weft revise RUN --input JSON|@file [--dry-run] [--store URL|PATH | --db PATH] [--json]`: a new
// input revision for a run. The plan (what runs again, what keeps its evidence, what waits for a
// decision) is printed before the revision acts; --dry-run prints only the plan and changes
// nothing.
import type { RevisePlan } from '../../../shared/api/input-commands.ts';
import type { JsonValue } from '../../../shared/api/json-value.ts';
import type { Command } from '../command.ts';
import { withUserErrors } from '../cli-errors.ts';
import { performOnStore, withReadOnlyStore } from '../engine-session.ts';
import { storeFlagsHelp, storePath } from '../store-path.ts';
import { EXIT_OK } from '../exit-codes.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { formatRevisionPlan } from '../revision-plan-text.ts';
import { readRunInput } from '../run-input.ts';
import { printRunOutcome } from '../run-outcome.ts';
import { UsageError } from '../usage-error.ts';

export const reviseCommand: Command = {
  name: 'revise',
  summary: "add an input revision to a run; only what depends on changed input runs again",
  usage: 'weft revise RUN --input JSON|@file [--dry-run] [--store URL|PATH | --db PATH] [--json]',
  help: `Gives RUN a new input (input revision N+1) and continues it. Each step's evidence records
the hash of the input it covered: a step whose resolved input is unchanged keeps its evidence,
one whose input changed runs again, and an external step whose earlier attempt with the same
input is unknown stays unknown (it is never repeated blindly). An external step whose input
changed after its effect happened waits for a decision (its onRevise, default "ask"): weft retry
runs it again, weft keep keeps its evidence, weft skip settles it with a given output. Earlier
attempts stay on record.

Before it acts, it prints the plan: which steps run again, which keep their evidence, which wait
for a decision, and which are decided only when the steps before them have settled, and which
steps it bills again with what their last attempts cost (--json: "rebill").

  --dry-run   print the plan and change nothing
${storeFlagsHelp(14)}
  --json      print {"runId","state","inputRevision","plan":[{"stepId","kind","action","reason"}]}
              (with --dry-run also "dryRun": true; actions: rerun, reuse, keep, ask, carry, later)

Exit status as for weft run; 0 for --dry-run.`,

  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { input: { type: 'string' }, store: { type: 'string' }, db: { type: 'string' }, json: { type: 'boolean' }, 'dry-run': { type: 'boolean' } });
    const [run, ...extra] = positionals;
    if (run === undefined || extra.length > 0) throw new UsageError('give exactly one run id');
    if (values.input === undefined) throw new UsageError('--input is required: the new run input, as JSON or @file');
    const json = values.json === true;
    // The input is read (and refused) before the store is opened.
    let input: JsonValue;
    try {
      input = readRunInput(values.input, io.cwd);
    } catch (e) {
      return withUserErrors('revise', io, () => Promise.reject(e));
    }
    if (values['dry-run'] === true) {
      return withReadOnlyStore('revise', io, values, async (reader) => {
        const id = reader.resolveRunId(run);
        const answer: RevisePlan = await reader.revisePlan(id, input);
        io.stdout.write(json ? `${JSON.stringify(answer)}\n` : `${formatRevisionPlan(id, answer)}dry run: nothing was changed\n`);
        return EXIT_OK;
      });
    }
    const path = storePath(values, io.cwd);
    return withUserErrors('revise', io, async () => {
      const [{ checkAct }, { performAct }, { ReviseOutcome }] = await Promise.all([import('../check-command.ts'), import('../../service/perform-command.ts'), import('../../../shared/api/input-commands.ts')]);
      const typed = checkAct({ command: 'act', run, action: { action: 'revise', input } });
      const revised = await performOnStore(path, 'revise', io, typed, ReviseOutcome, async (service) => ReviseOutcome.parse(await performAct(service, typed)));
      if (!json) io.stdout.write(formatRevisionPlan(revised.runId, revised));
      return printRunOutcome(io, revised.runId, revised.state, json, { inputRevision: revised.inputRevision, plan: revised.plan });
    });
  },
};
