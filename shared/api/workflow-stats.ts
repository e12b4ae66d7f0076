// The workflow report of `weft stats --json` and `GET /api/stats/:workflowId?version=`: the
// workflow's figures over its runs (`stats`) and every run's own metrics (`runs`, oldest first),
// exactly as engine/metrics/ folds them from the event log (docs/metrics.md defines each field).
// The CLI adds `asOf` (ISO time of the question); the HTTP route does not send it. The HTTP route
// lists only the newest runs (`?runs=N`, STATS_RUNS by default) and adds what the Insights page
// needs over all of them instead (`runsOmitted`, `edgeRuns`, `runsOverTime`).
import { z } from 'zod';
import { RUN_STATES } from '../definition/names.ts';
import { SettleOutcome } from './event-parts.ts';
import { STATS_RUNS } from './read-limits.ts';
import { RunFailure } from './run-summary.ts';
import { RunCostMetrics, WorkflowCostStats } from './cost-stats.ts';

export { STATS_RUNS };

const count = z.number().int().nonnegative();

/** Milliseconds; not bounded below, so a clock that stepped back still gives a readable report. */
const ms = z.number();
/** A fraction from 0 to 1; null when there is nothing to divide by. */
const rate = z.number().min(0).max(1).nullable();

/** Nearest-rank percentiles of a set of durations (ms), and how many samples. */
export const Percentiles = z.strictObject({ p50: ms, p95: ms, max: ms, count });
export type Percentiles = z.infer<typeof Percentiles>;

/** One step in one run, as engine/metrics/run-metrics.ts folds it. */
export const StepMetrics = z.strictObject({
  /** Activations that ran (a retry by an operator, a loop pass or a revision starts a new one). */
  activations: count,
  attempts: count,
  /** Automatic retries after a failed attempt (a rerun after an engine restart is not one). */
  retries: count,
  /** Sum over activations of activation to settlement (to the run's end while one is open). */
  durationMs: ms,
  activeMs: ms,
  waitingMs: ms,
  queueMs: ms,
  /** Activation to settlement, one per settled activation, in order: what p50/p95 are taken over. */
  latenciesMs: z.array(ms),
  /** The outcome of the latest settlement, null while the step has not settled. */
  outcome: SettleOutcome.nullable(),
  /** Set on a compensation step: the step it offsets. */
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
  /** When the run reached its final state (epoch ms); null while it is not finished. */
  endedAt: z.number().nullable(),
  durationMs: ms,
  activeMs: ms,
  waitingMs: ms,
  queueMs: ms,
  attentionMs: ms,
  retries: count,
  /** Steps offset by a compensation step. */
  compensations: count,
  humanInterventions: count,
  interventions: z.strictObject({ decisions: count, reassignments: count, operatorActions: count, revisions: count }),
  /** Edges taken, in the order they were taken (repeats for loops). */
  path: z.array(z.string()),
  /** Per edge: how often its source settled with a decision on it, and how often it was taken. */
  edges: z.record(z.string(), z.strictObject({ decided: count, taken: count })),
  steps: z.record(z.string(), StepMetrics),
  failure: RunFailure.nullable(),
  /** What its attempts cost, per step and UTC day; only when one recorded a cost or tokens. */
  cost: RunCostMetrics.optional(),
});
export type RunMetrics = z.infer<typeof RunMetrics>;

/** One step over all runs, as engine/metrics/workflow-stats.ts aggregates it. */
export const StepStats = z.strictObject({
  /** Runs in which the step was activated at least once. */
  runs: count,
  activations: count,
  attempts: count,
  retries: count,
  /** Latest outcome per run, counted; only outcomes that occurred are listed. */
  outcomes: z.partialRecord(SettleOutcome, count),
  /** Activation to settlement, over every settled activation of every run. */
  latencyMs: Percentiles.nullable(),
  /** The step's active time (attempts doing work) per run that activated it. */
  activeMs: Percentiles.nullable(),
});
export type StepStats = z.infer<typeof StepStats>;

/** One edge over all runs: decided by its source, taken, and taken ÷ decided. */
export const EdgeStats = z.strictObject({
  /** How often its source settled (not skipped) and so decided it. */
  decided: count,
  taken: count,
  /** taken / decided. */
  frequency: rate,
});
export type EdgeStats = z.infer<typeof EdgeStats>;

/** A workflow's figures over its runs, as engine/metrics/workflow-stats.ts aggregates them. */
export const WorkflowStats = z.strictObject({
  workflowId: z.string(),
  versions: z.array(z.number().int().positive()),
  runs: count,
  /** Every run state, with zero for those no run is in. */
  states: z.record(z.enum(RUN_STATES), count),
  finished: count,
  /** succeeded / finished (failed and cancelled runs are the rest). */
  successRate: rate,
  /** Runs with at least one automatic retry / runs. */
  retryRate: rate,
  /** Runs in which a compensation offset at least one step / runs. */
  compensationRate: rate,
  /** Runs in which a person acted (decision, reassignment, operator action, revision) / runs. */
  humanInterventionRate: rate,
  totals: z.strictObject({ retries: count, compensations: count, humanInterventions: count }),
  /** Creation to final state, over finished runs. */
  durationMs: Percentiles.nullable(),
  /** Failed and needs-attention runs by the step where they went wrong. */
  failures: z.record(z.string(), count),
  steps: z.record(z.string(), StepStats),
  edges: z.record(z.string(), EdgeStats),
  /** What the runs cost: totals, per successful run, per day, the most expensive steps. */
  cost: WorkflowCostStats,
});
export type WorkflowStats = z.infer<typeof WorkflowStats>;

/** Runs that started in one bucket of time (its start, epoch ms), counted for the rates over time. */
export const StartBucket = z.strictObject({
  start: z.number(),
  runs: count,
  finished: count,
  succeeded: count,
  /** Runs with at least one automatic retry. */
  retried: count,
  /** Runs in which a compensation offset a step. */
  compensated: count,
  /** Runs in which a person acted. */
  intervened: count,
});
export type StartBucket = z.infer<typeof StartBucket>;

/**
 * Every run of the report counted by when it started, in buckets of the viewer's time zone
 * (`offsetMin` as Date#getTimezoneOffset gives it; shared/run/start-buckets.ts picks the unit).
 * Buckets with no run are listed too, from the first run's to the last run's.
 */
export const RunsOverTime = z.strictObject({
  by: z.enum(['minute', 'hour', 'day', 'week']),
  offsetMin: z.number().int(),
  buckets: z.array(StartBucket),
});
export type RunsOverTime = z.infer<typeof RunsOverTime>;

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
  /**
   * Only from GET /api/stats: how many older runs `runs` leaves out (it lists the newest
   * `?runs=N`, 200 by default; `stats` is over all of them).
   */
  runsOmitted: count.optional(),
  /** Only from GET /api/stats: per edge, how many runs (of all) took it at least once. */
  edgeRuns: z.record(z.string(), count).optional(),
  /** Only from GET /api/stats: all runs counted by when they started (the Insights page's rates over time). */
  runsOverTime: RunsOverTime.optional(),
});
export type WorkflowReport = z.infer<typeof WorkflowReport>;
