// A run as a test (docs/evolution.md, "A run becomes a test"): `GET /api/runs/:id/scenario`
// answers the scenario file made from a run that has ended; `POST /api/runs/:id/scenario` saves
// it in the workspace beside the run's workflow, as NAME.scenarios/from-run-RUN.json.
import { z } from 'zod';
import { RUN_STATES } from '../definition/names.ts';
import type { ScenarioFile } from '../scenario/scenario-schema.ts';

/**
 * A scenarios file, as the route carries it: checked here for its shape only, so the app's
 * bundle does not carry the scenario schema and JSONata; the engine makes it with
 * shared/scenario/scenario-schema.ts, and `weft test` parses it with that schema.
 */
const ScenarioFileValue = z.custom<ScenarioFile>((v) => typeof v === 'object' && v !== null && Array.isArray((v as { scenarios?: unknown }).scenarios), 'a scenarios file: an object with a "scenarios" array');

/** The scenario made from a run, as a scenarios file with that one scenario. */
export const RunScenarioView = z.strictObject({
  runId: z.string(),
  workflowId: z.string(),
  version: z.number().int(),
  state: z.enum(RUN_STATES),
  file: ScenarioFileValue.describe('a scenarios file (docs/scenarios.md) holding the one scenario'),
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
