// A run as a test (docs/evolution.md, "A run becomes a test"): `GET /api/runs/:id/scenario`
// answers the scenario file made from a run that has ended; `POST /api/runs/:id/scenario` saves
// it in the workspace beside the run's workflow, as NAME.scenarios/from-run-RUN.json.
import { z } from 'zod';
import { RUN_STATES } from '../definition/names.ts';
import { ScenarioFile } from '../scenario/scenario-schema.ts';

/** The scenario made from a run, as a scenarios file with that one scenario. */
export const RunScenarioView = z.strictObject({
  runId: z.string(),
  workflowId: z.string(),
  version: z.number().int(),
  state: z.enum(RUN_STATES),
  file: ScenarioFile.describe('a scenarios file (docs/scenarios.md) holding the one scenario'),
});
export type RunScenarioView = z.infer<typeof RunScenarioView>;

/** Where the scenario was saved: paths relative to the workspace, with / separators. */
export const SavedRunScenario = z.strictObject({
  runId: z.string(),
  file: z.string().describe('the scenario file written, e.g. record-update.scenarios/from-run-RUN.json'),
  workflowFile: z.string().describe('the workflow file it tests, beside which it was saved'),
  name: z.string().describe("the scenario's name"),
});
export type SavedRunScenario = z.infer<typeof SavedRunScenario>;
