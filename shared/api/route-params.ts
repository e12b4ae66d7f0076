// The path parameters and the small queries of the API's routes (routes.ts): how a route addresses
// a run, a task, a workflow or a version. Path and query strings become numbers here.
import { z } from 'zod';
import { RunId, StepId, WorkflowId } from './api-ids.ts';

/** `:id` of a run route: a run id or a unique prefix. */
export const RunParams = z.strictObject({ id: RunId });
export type RunParams = z.infer<typeof RunParams>;

/** `:runId/:stepId` of a task: the run and the step whose task it is. */
export const TaskParams = z.strictObject({ runId: RunId, stepId: StepId });
export type TaskParams = z.infer<typeof TaskParams>;

/** `:id/steps/:stepId` of a run route: a step of the run's definition. */
export const RunStepParams = z.strictObject({ id: RunId, stepId: StepId });
export type RunStepParams = z.infer<typeof RunStepParams>;

/** `:id` of a workflow route: the workflow's slug. */
export const WorkflowParams = z.strictObject({ id: WorkflowId });
export type WorkflowParams = z.infer<typeof WorkflowParams>;

/** `:id/versions/:version`: a version of a workflow the store holds. */
export const VersionParams = z.strictObject({ id: WorkflowId, version: z.coerce.number().int().positive() });
export type VersionParams = z.infer<typeof VersionParams>;

/** `:workflowId` of `GET /api/stats/:workflowId`. */
export const StatsParams = z.strictObject({ workflowId: WorkflowId });
export type StatsParams = z.infer<typeof StatsParams>;

/**
 * `?version=&runs=&tz=` of `GET /api/stats/:workflowId`: the figures of one version only; how many
 * of the newest runs to list (STATS_RUNS of workflow-stats.ts by default; the figures are over all);
 * the viewer's Date#getTimezoneOffset() in minutes, for `runsOverTime` (0, UTC, by default).
 */
export const StatsQuery = z.strictObject({
  version: z.coerce.number().int().positive().optional(),
  runs: z.coerce.number().int().nonnegative().optional(),
  tz: z.coerce.number().int().min(-1440).max(1440).optional(),
});
export type StatsQuery = z.infer<typeof StatsQuery>;
