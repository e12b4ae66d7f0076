// What work cost across runs, in `weft stats --json` and GET /api/stats (docs/metrics.md, "Cost"):
// per run, what its attempts cost per step and UTC day (`RunMetrics.cost`, folded from the
// attempts' recorded meta.cost and usage by engine/metrics/cost-metrics.ts); per workflow the
// totals, the cost per successful run, the cost per day and the most expensive steps
// (`WorkflowStats.cost`). Every amount is added with shared/cost/attempt-cost.ts's sumCost.
import { z } from 'zod';

const count = z.number().int().nonnegative();
const amount = z.number().nonnegative();

/** One step's attempts that ended on one UTC day (`YYYY-MM-DD`) and recorded a cost or tokens. */
export const CostEntry = z.strictObject({
  step: z.string(),
  day: z.string().regex(/^\d{4}-\d\d-\d\d$/),
  total: amount,
  inputTokens: count,
  outputTokens: count,
  /** Attempts that recorded a cost or token usage. */
  attempts: count,
});
export type CostEntry = z.infer<typeof CostEntry>;

/**
 * A run's cost: `total` and tokens over its attempts, in `currency` (the recorded one), and the
 * same per step and day. Only on a run with an attempt that recorded a cost or tokens.
 */
export const RunCostMetrics = z.strictObject({
  total: amount,
  currency: z.string(),
  inputTokens: count,
  outputTokens: count,
  entries: z.array(CostEntry),
});
export type RunCostMetrics = z.infer<typeof RunCostMetrics>;

/** What a workflow's runs spent on one UTC day (by when each attempt ended). */
export const CostDay = z.strictObject({ day: z.string(), total: amount, inputTokens: count, outputTokens: count, attempts: count });
export type CostDay = z.infer<typeof CostDay>;

/** What one step cost over all runs. */
export const StepCostStats = z.strictObject({ stepId: z.string(), total: amount, inputTokens: count, outputTokens: count, attempts: count });
export type StepCostStats = z.infer<typeof StepCostStats>;

/**
 * A workflow's cost over its runs: `total` and tokens; `perSuccessfulRun`, what a run that
 * succeeded cost on average, and `perSuccess`, everything spent (failed runs too) per run that
 * succeeded, null with no succeeded run; `days`, oldest first, only days with a cost or tokens;
 * `steps`, the most expensive first (by total, then tokens), only steps with a cost or tokens.
 *
 * @example
 * const [priciest] = report.stats.cost.steps; // { stepId: 'draft', total: 1.92, ... }
 */
export const WorkflowCostStats = z.strictObject({
  total: amount,
  currency: z.string(),
  inputTokens: count,
  outputTokens: count,
  perSuccessfulRun: amount.nullable(),
  perSuccess: amount.nullable(),
  days: z.array(CostDay),
  steps: z.array(StepCostStats),
});
export type WorkflowCostStats = z.infer<typeof WorkflowCostStats>;

/** One workflow's line in the workspace's cost summary. */
export const WorkflowCostLine = z.strictObject({ workflowId: z.string(), runs: count, cost: WorkflowCostStats });
export type WorkflowCostLine = z.infer<typeof WorkflowCostLine>;

/**
 * `weft stats --json` without a workflow: what every workflow of the store cost (the most
 * expensive first), and per UTC day the total and each workflow's part (oldest first).
 */
export const CostSummary = z.strictObject({
  asOf: z.string(),
  total: amount,
  currency: z.string(),
  workflows: z.array(WorkflowCostLine),
  days: z.array(z.strictObject({ day: z.string(), total: amount, workflows: z.record(z.string(), amount) })),
});
export type CostSummary = z.infer<typeof CostSummary>;
