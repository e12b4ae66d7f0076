// `weft test --from-run RUN [-o FILE] [--store URL|PATH | --db PATH]`: a stored run as a scenario
// (docs/evolution.md, "A run becomes a test"). Without -o the scenario file's JSON goes to stdout.
// With -o it is written to FILE; an existing FILE is added to only when it is a scenarios file of
// the same workflow (the scenario goes at the end of its `scenarios`), and anything else there is
// refused.
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { writeFileAtomic } from '../../shared-node/atomic-file.ts';
import type { ScenarioFile } from '../../shared/scenario/scenario-schema.ts';
import type { RunScenario } from '../service/run-scenario-read.ts';
import type { CliIo } from './cli-io.ts';
import { withReadOnlyStore } from './engine-session.ts';
import { EXIT_OK, EXIT_USAGE } from './exit-codes.ts';
import type { StoreFlags } from './store-path.ts';

/** Makes the scenario of `run` and prints it, or writes it to `output`. */
export function testFromRun(io: CliIo, run: string, output: string | undefined, store: StoreFlags): Promise<number> {
  return withReadOnlyStore('test', io, store, async (reader) => {
    const made = await reader.runScenario(run);
    if (output === undefined) {
      io.stdout.write(`${JSON.stringify({ scenarios: [made.scenario] }, null, 2)}\n`);
      return EXIT_OK;
    }
    return writeScenario(io, made, resolve(io.cwd, output));
  });
}

async function writeScenario(io: CliIo, made: RunScenario, file: string): Promise<number> {
  const fail = (message: string): number => {
    io.stderr.write(`weft test: ${message}; nothing was written\n`);
    return EXIT_USAGE;
  };
  if (!existsSync(file)) {
    if (!existsSync(dirname(file))) return fail(`the folder of ${file} does not exist: make it first, or give another -o`);
    const workflowFile = findWorkflowFile(made, file, io.cwd);
    const beside = besideWorkflow(file);
    // The workflow key only where `weft test` would not find the workflow beside the file.
    const key = workflowFile === undefined || workflowFile === beside ? {} : { workflow: relative(dirname(file), workflowFile) };
    const body: ScenarioFile = { ...key, scenarios: [made.scenario] };
    writeFileAtomic(file, `${JSON.stringify(body, null, 2)}\n`, { replace: false });
    io.stdout.write(`wrote ${file}: the scenario "${made.scenario.name}"\n`);
    if (workflowFile === undefined) io.stderr.write(`weft test: the file of workflow "${made.workflowId}" was not found beside ${basename(file)} or in ${made.workspaceDir}; run it with weft test WORKFLOW_FILE ${file}\n`);
    else io.stdout.write(`run it: weft test ${relative(io.cwd, workflowFile) || workflowFile} ${relative(io.cwd, file) || file}\n`);
    return EXIT_OK;
  }
  const { ScenarioFile } = await import('../../shared/scenario/scenario-schema.ts');
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return fail(`${file} exists and is not a scenarios file (not JSON); give another -o`);
  }
  const parsed = ScenarioFile.safeParse(raw);
  if (!parsed.success) return fail(`${file} exists and is not a scenarios file (docs/scenarios.md); give another -o`);
  const existing = parsed.data;
  const workflowFile = existing.workflow === undefined ? besideWorkflow(file) : resolve(dirname(file), existing.workflow);
  const id = workflowFile === undefined ? undefined : workflowIdOf(workflowFile);
  if (id !== made.workflowId) {
    return fail(`${file} holds scenarios of ${id === undefined ? 'a workflow not found beside it' : `workflow "${id}"`}, and run ${made.runId} is a run of "${made.workflowId}"; give another -o`);
  }
  if (existing.scenarios.some((s) => s.name === made.scenario.name)) return fail(`${file} already holds the scenario "${made.scenario.name}"`);
  // Added to the file as it was read (raw), so every other scenario keeps its exact JSON.
  const body = raw as ScenarioFile;
  writeFileAtomic(file, `${JSON.stringify({ ...body, scenarios: [...body.scenarios, made.scenario] }, null, 2)}\n`);
  io.stdout.write(`added to ${file}: the scenario "${made.scenario.name}" (${existing.scenarios.length + 1} scenarios)\n`);
  return EXIT_OK;
}

/** The NAME.weft.json that `weft test` finds for a scenario file: beside NAME.scenarios.json, or beside the NAME.scenarios/ folder it is in. */
function besideWorkflow(file: string): string | undefined {
  if (file.endsWith('.scenarios.json')) return file.replace(/\.scenarios\.json$/, '.weft.json');
  const dir = dirname(file);
  return dir.endsWith('.scenarios') ? dir.replace(/\.scenarios$/, '.weft.json') : undefined;
}

/** The run's workflow file: beside the output, else WORKFLOW_ID.weft.json in the run's workspace or here. */
function findWorkflowFile(made: RunScenario, file: string, cwd: string): string | undefined {
  const candidates = [besideWorkflow(file), join(resolve(cwd, made.workspaceDir), `${made.workflowId}.weft.json`), join(cwd, `${made.workflowId}.weft.json`)];
  return candidates.find((c) => c !== undefined && workflowIdOf(c) === made.workflowId);
}

function workflowIdOf(file: string): string | undefined {
  try {
    const json: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof json === 'object' && json !== null && 'id' in json && typeof json.id === 'string' ? json.id : undefined;
  } catch {
    return undefined;
  }
}
