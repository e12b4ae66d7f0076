// The workflow report of `weft stats --json` and `GET /api/stats/:workflowId?version=`: the
// workflow's figures over its runs (`stats`) and every run's own metrics (`runs`, oldest first),
// exactly as engine/metrics/ folds them from the event log (docs/metrics.md defines each field).
// The CLI adds `asOf` (ISO time of the question); the HTTP route does not send it.
import { z } from 'zod';
import { RUN_STATES } from '../definition/names.ts';
import { SettleOutcome } from './event-parts.ts';
import { RunFailure } from './run-summary.ts';

const count = z.number().int().nonnegative();
/** Milliseconds; not bounded below, so a clock that stepped back still gives a readable report. */
const ms = z.number();
/** A fraction from 0 to 1; null when there is nothing to divide by. */
const rate = z.number().min(0).max(1).nullable();

/** Nearest-rank percentiles of a set of durations (ms), and how many samples. */
export const Percentiles = z.strictObject({ p50: ms, p95: ms, max: ms, count });
export type Percentiles = z.infer<typeof Percentiles>;

/** One step in one run (engine/metrics/run-metrics.ts `StepMetrics`). */
export const StepMetrics = z.strictObject({
  activations: count,
  attempts: count,
  retries: count,
  durationMs: ms,
  activeMs: ms,
  waitingMs: ms,
  queueMs: ms,
  latenciesMs: z.array(ms),
  outcome: SettleOutcome.nullable(),
  compensates: z.string().optional(),
});
export type StepMetrics = z.infer<typeof StepMetrics>;

/**
 * One run's metrics: its state, its duration split into active, waiting, queued and attention
 * time (they add up to `durationMs`), retries, compensations, people's acts, the edges it took.
 *
 * @example
 * const slowest = report.runs.toSorted((a, b) => b.durationMs - a.durationMs)[0];
 */
export const RunMetrics = z.strictObject({
  runId: z.string(),
  workflowId: z.string(),
  version: z.number().int().positive(),
  state: z.enum(RUN_STATES),
  finished: z.boolean(),
  /** Epoch ms. */
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  durationMs: ms,
  activeMs: ms,
  waitingMs: ms,
  queueMs: ms,
  attentionMs: ms,
  retries: count,
  compensations: count,
  humanInterventions: count,
  interventions: z.strictObject({ decisions: count, reassignments: count, operatorActions: count, revisions: count }),
  path: z.array(z.string()),
  edges: z.record(z.string(), z.strictObject({ decided: count, taken: count })),
  steps: z.record(z.string(), StepMetrics),
  failure: RunFailure.nullable(),
});
export type RunMetrics = z.infer<typeof RunMetrics>;

/** One step over all runs (engine/metrics/workflow-stats.ts `StepStats`). */
export const StepStats = z.strictObject({
  runs: count,
  activations: count,
  attempts: count,
  retries: count,
  /** Latest outcome per run, counted; only outcomes that occurred are listed. */
  outcomes: z.partialRecord(SettleOutcome, count),
  latencyMs: Percentiles.nullable(),
  activeMs: Percentiles.nullable(),
});
export type StepStats = z.infer<typeof StepStats>;

/** One edge over all runs: decided by its source, taken, and taken ÷ decided. */
export const EdgeStats = z.strictObject({ decided: count, taken: count, frequency: rate });
export type EdgeStats = z.infer<typeof EdgeStats>;

/** A workflow's figures over its runs (engine/metrics/workflow-stats.ts `WorkflowStats`). */
export const WorkflowStats = z.strictObject({
  workflowId: z.string(),
  versions: z.array(z.number().int().positive()),
  runs: count,
  /** Every run state, with zero for those no run is in. */
  states: z.record(z.enum(RUN_STATES), count),
  finished: count,
  successRate: rate,
  retryRate: rate,
  compensationRate: rate,
  humanInterventionRate: rate,
  totals: z.strictObject({ retries: count, compensations: count, humanInterventions: count }),
  durationMs: Percentiles.nullable(),
  failures: z.record(z.string(), count),
  steps: z.record(z.string(), StepStats),
  edges: z.record(z.string(), EdgeStats),
});
export type WorkflowStats = z.infer<typeof WorkflowStats>;

/**
 * The whole report. `runs` are in creation order, oldest first.
 *
 * @example
 * const report = WorkflowReport.parse(JSON.parse(stdoutOfWeftStatsJson));
 * report.stats.successRate; // 0.5
 */
export const WorkflowReport = z.strictObject({
  /** Only from the CLI (`weft stats --json`): when the figures were taken, ISO 8601. */
  asOf: z.iso.datetime().optional(),
  stats: WorkflowStats,
  runs: z.array(RunMetrics),
});
export type WorkflowReport = z.infer<typeof WorkflowReport>;
