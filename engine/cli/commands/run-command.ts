// `weft run FILE [--input JSON|@file] [--store URL|PATH | --db PATH] [--json]`: runs a workflow
// until it ends or only waiting work remains.
import { dirname, resolve } from 'node:path';
import { hasErrors } from '../../../shared/validator/diagnostic.ts';
import type { Command } from '../command.ts';
import { withUserErrors } from '../cli-errors.ts';
import { performOnStore } from '../engine-session.ts';
import { EXIT_FAILED } from '../exit-codes.ts';
import { debugFlags } from '../debug-flags.ts';
import { formatDiagnosticLine } from '../format-diagnostic.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { readRunInput } from '../run-input.ts';
import { printRunOutcome } from '../run-outcome.ts';
import { storeFlagsHelp, storePath } from '../store-path.ts';
import { UsageError } from '../usage-error.ts';

export const runCommand: Command = {
  name: 'run',
  summary: 'run a workflow until it ends or only waiting work remains',
  usage: 'weft run FILE [--input JSON|@file] [--key KEY] [--priority N] [--budget AMOUNT] [--break STEP]... [--pin STEP=@file.json]... [--store URL|PATH | --db PATH] [--json]',
  help: `Validates FILE, stores a snapshot of its definition (a version that has run is
immutable), starts a run and drives it until it ends or only waiting work remains
(timers, people, events, or a step that needs a person).

  --input JSON|@file   the run input (default {}); checked against the workflow's input schema
  --key KEY            idempotent creation: if a run of this workflow was created with KEY,
                       nothing new starts and that run is reported (and driven on)
  --priority N         order among runs queued by limits.maxParallelRuns (higher first)
  --budget AMOUNT      the most this run may spend, in the policy's currency (docs/budgets.md);
                       the smallest of it, limits.budget and the policy's perRun applies
  --break STEP         a debug run: pause before STEP starts (repeat for more steps); then
                       weft continue RUN, or weft step RUN to pause before the next start
  --pin STEP=@file     a debug run: settle STEP with this output (or STEP=JSON) without calling
                       it, as pinned evidence that no other run reuses (repeat for more steps)
${storeFlagsHelp(23)}
  --json               print {"runId","state"}

Exit status: 0 succeeded, 1 failed (or the definition is invalid), 2 usage, input or store
error, 3 left waiting or needing attention.`,

  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, {
      input: { type: 'string' },
      store: { type: 'string' },
      db: { type: 'string' },
      json: { type: 'boolean' },
      key: { type: 'string' },
      priority: { type: 'string' },
      budget: { type: 'string' },
      break: { type: 'string', multiple: true },
      pin: { type: 'string', multiple: true },
    });
    const priority = values.priority === undefined ? undefined : Number(values.priority);
    if (priority !== undefined && !Number.isInteger(priority)) throw new UsageError('--priority takes a whole number');
    const budget = values.budget === undefined ? undefined : Number(values.budget);
    if (budget !== undefined && (values.budget?.trim() === '' || !Number.isFinite(budget) || budget < 0)) throw new UsageError(`--budget takes an amount of 0 or more, such as 0.25; got "${values.budget ?? ''}"`);
    const [file, ...extra] = positionals;
    if (file === undefined || extra.length > 0) throw new UsageError('give exactly one workflow file');
    const dbPath = storePath(values, io.cwd);
    return withUserErrors('run', io, async () => {
      const path = resolve(io.cwd, file);
      // The validator loads with the command that needs it, not with every `weft` call.
      const { loadDefinitionFile } = await import('../../definition/load-definition-file.ts');
      const { workflow, diagnostics, text } = await loadDefinitionFile(path);
      if (workflow === undefined || text === undefined || hasErrors(diagnostics)) {
        for (const d of diagnostics) if (d.severity === 'error') io.stderr.write(`${formatDiagnosticLine(file, d)}\n`);
        io.stderr.write(`weft run: ${file} is not a valid workflow; nothing was run (check it with weft validate)\n`);
        return EXIT_FAILED;
      }
      const input = readRunInput(values.input, io.cwd);
      const debugAsked = debugFlags(values.break, values.pin, io.cwd);
      // Checked before the store is opened: a refused run leaves no store behind.
      const [{ checkStart }, { checkDebug }, { checkRun }, { RunOutcome }] = await Promise.all([
        import('../../service/engine-service.ts'),
        import('../../service/debug-settings.ts'),
        import('../check-command.ts'),
        import('../../../shared/api/run-outcome.ts'),
      ]);
      const start = checkStart(workflow, dirname(path), input);
      const debug = checkDebug(workflow, debugAsked);
      // What a server that owns the store is sent: the file's text, never its path.
      const typed = checkRun({ command: 'run', definition: text, input, key: values.key, priority, budget, ...(debugAsked === undefined ? {} : { debug: debugAsked }) });
      const outcome = await performOnStore(dbPath, 'run', io, typed, RunOutcome, async (service) => {
        const { runId } = service.startChecked(start, { key: values.key, priority, budget, ...(debug === undefined ? {} : { debug }) });
        return { runId, state: await service.settled(runId) };
      }, 'create');
      return printRunOutcome(io, outcome.runId, outcome.state, values.json === true);
    });
  },
};
