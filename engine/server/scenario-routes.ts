// The routes of "a run becomes a test" (docs/evolution.md): the scenario made from a run, and
// saving it beside the run's workflow in the workspace (engine/service/run-scenario-file.ts). The
// saved file's path is the service's own, never a client's. Beside them, what acting on a run again
// (a retry, a fork, a replay) would bill again: both read one run's log on the service.
import type { EngineService } from '../service/engine-service.ts';
import { runScenarioView, saveRunScenario } from '../service/run-scenario-file.ts';
import type { RouteHandlers } from './register-routes.ts';

export function scenarioHandlers(s: EngineService): Pick<RouteHandlers, 'runs.scenario' | 'runs.saveScenario' | 'runs.rebill'> {
  return {
    // What a retry or fork from a step, or a replay, would bill again (docs/runs.md, "Billed again").
    'runs.rebill': ({ params, query }) => s.reader.rebill(s.reader.resolveRunId(params.id), query),
    'runs.scenario': ({ params }) => runScenarioView(s.reader, params.id),
    'runs.saveScenario': async ({ params }, answer) => {
      const saved = await saveRunScenario(s.reader, s.files, params.id);
      answer.status(201);
      return saved;
    },
  };
}
