// Assertions on what a run cost (docs/cost.md): `expect.cost` for the run and
// `expect.steps.ID.cost` per step, read through the same runCost the CLI and the run page show.
import type { ScenarioExpect } from '../../shared/scenario/scenario-schema.ts';
import type { RunModel } from '../../shared/run/run-model.ts';
import { runCost } from '../../shared/cost/run-cost.ts';
import type { AssertionResult } from './assertion-result.ts';

/** The cost assertions of one run's expect. */
export function checkCost(x: ScenarioExpect, run: RunModel): AssertionResult[] {
  const wanted = Object.entries(x.steps ?? {}).filter(([, w]) => w.cost !== undefined);
  if (x.cost === undefined && wanted.length === 0) return [];
  const cost = runCost(run.steps.values());
  const out: AssertionResult[] = [];
  if (x.cost !== undefined) out.push({ what: 'cost of the run', ok: x.cost === cost.total, expected: x.cost, actual: cost.total });
  for (const [id, w] of wanted) {
    const actual = cost.steps[id]?.total ?? 0;
    out.push({ what: `cost of "${id}"`, ok: w.cost === actual, expected: w.cost, actual });
  }
  return out;
}
