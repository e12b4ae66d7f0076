// The service's side of "a run becomes a test" (docs/evolution.md): the scenario made from a
// stored run, read from its log and checked against its schema, with the engine's refusals (a run
// still going, a fork, a pinned computed step) as the service's `refused`.
import { runToScenario, RunToScenarioError, type RunScenario } from '../evolution/run-to-scenario.ts';
import type { RunModel } from '../../shared/run/run-model.ts';
import type { Store } from '../store/store.ts';
import type { ArtifactStore } from '../artifacts/artifact-store.ts';
import { ServiceError } from './service-error.ts';

export type { RunScenario } from '../evolution/run-to-scenario.ts';

/** The scenario of run `runId` (already resolved), folded by `fold`, its values by reference read from `artifacts`. */
export function scenarioOfRun(store: Store, artifacts: ArtifactStore, runId: string, fold: (runId: string) => RunModel): RunScenario {
  const model = fold(runId);
  try {
    return runToScenario(model, store.readEvents(runId), (ref) => artifacts.read(ref));
  } catch (e) {
    if (e instanceof RunToScenarioError) throw new ServiceError('refused', e.message);
    throw e;
  }
}
