// Saving the scenario made from a run in the workspace (the app's "Save as test"): beside the
// run's workflow file, as NAME.scenarios/from-run-RUN.json, where `weft test NAME.weft.json`
// finds it. The path is the service's own, made from the workflow file the workspace lists for
// the run's workflow id (WorkspaceFiles guards it), never one a client sends; an existing file is
// never overwritten, and a NAME.scenarios that leads out of the workspace is refused.
import { existsSync, lstatSync, mkdirSync, realpathSync } from 'node:fs';
import { basename, dirname, join, posix, sep } from 'node:path';
import type { RunScenarioView, SavedRunScenario } from '../../shared/api/run-scenario.ts';
import { writeFileAtomic } from '../../shared-node/atomic-file.ts';
import type { RunReader } from './run-reader.ts';
import { ServiceError } from './service-error.ts';
import type { WorkspaceFiles } from './workspace-files.ts';

/** The scenario of a run as `GET /api/runs/:id/scenario` answers it. */
export async function runScenarioView(reader: RunReader, idOrPrefix: string): Promise<RunScenarioView> {
  const made = await reader.runScenario(idOrPrefix);
  return { runId: made.runId, workflowId: made.workflowId, version: made.version, state: made.state, file: { scenarios: [made.scenario] } };
}

/** Writes the run's scenario to NAME.scenarios/from-run-RUN.json beside its workflow's file in the workspace. */
export async function saveRunScenario(reader: RunReader, files: WorkspaceFiles, idOrPrefix: string): Promise<SavedRunScenario> {
  const made = await reader.runScenario(idOrPrefix);
  let workflowFile: string;
  try {
    workflowFile = (await files.byId(made.workflowId)).file;
  } catch {
    throw new ServiceError('not-found', `no file of workflow "${made.workflowId}" in the workspace ${files.root}, so there is nowhere beside it to save the test; print it with weft test --from-run ${made.runId} instead`);
  }
  const full = files.resolveInside(workflowFile);
  const folderName = `${basename(full).replace(/\.weft\.json$/, '')}.scenarios`;
  const folder = join(dirname(full), folderName);
  if (existsSync(folder)) {
    const real = realpathSync(folder);
    if (!lstatSync(real).isDirectory() || (real !== files.root && !real.startsWith(`${files.root}${sep}`))) {
      throw new ServiceError('refused', `${folderName} beside ${workflowFile} is not a folder inside the workspace; nothing was written`);
    }
  } else mkdirSync(folder);
  const name = `from-run-${made.runId}.json`;
  const file = posix.join(posix.dirname(workflowFile), folderName, name);
  try {
    writeFileAtomic(join(folder, name), `${JSON.stringify({ scenarios: [made.scenario] }, null, 2)}\n`, { replace: false });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new ServiceError('refused', `${file} exists already: the test of run ${made.runId} was saved before; nothing was written (delete that file to save it again)`);
    throw e;
  }
  return { runId: made.runId, file, workflowFile, name: made.scenario.name };
}
