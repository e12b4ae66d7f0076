// A workflow's figures from the per-workflow rollups (engine/store/workflow-rollups.ts) plus a
// fold of each run still going: the same WorkflowStats that workflowStats gives over every run's
// metrics (scannedWorkflowReport is the reference the tests compare it with), without reading
// each finished run. Counters are summed; percentiles are taken over every stored sample and the
// live runs' ones, sorted as float64 arrays (exact nearest rank, as workflowStats).
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { RunState } from '../../shared/definition/names.ts';
import type { RunMetrics, StepStats, WorkflowStats } from '../../shared/api/workflow-stats.ts';
import type { WorkflowRollups } from '../store/workflow-rollups.ts';
import { StatsAccumulator, type Samples, type StepAcc } from './workflow-stats.ts';
import { utcDay } from './cost-metrics.ts';
import { DAY_MS } from '../store/day-spend.ts';

/** A cost rollup row's figures, its millionths as an amount. */
const counted = (c: { micros: number; inputTokens: number; outputTokens: number; attempts: number }) => ({
  total: c.micros / 1_000_000,
  inputTokens: c.inputTokens,
  outputTokens: c.outputTokens,
  attempts: c.attempts,
});

/** The figures, and per edge how many runs took it at least once. */
export interface RolledUpStats {
  stats: WorkflowStats;
  edgeRuns: Record<string, number>;
}

/** Adds every stored run's samples (samplesText of workflow-rollups.ts, joined by commas) to the sets. */
function readSamples(text: string, durations: Samples, stepOf: (id: string) => StepAcc): void {
  if (text === '') return;
  // Written by samplesText from numbers and step ids, in the transaction of the run's rollup.
  const items = JSON.parse(`[${text}]`) as (number | string | null)[];
  for (let i = 0; i < items.length; ) {
    durations.push(Number(items[i++]));
    while (typeof items[i] === 'string') {
      const x = stepOf(String(items[i]));
      const active = items[i + 1];
      if (typeof active === 'number') x.active.push(active);
      const n = Number(items[i + 2]);
      i += 3;
      for (let k = 0; k < n; k++) x.latencies.push(Number(items[i++]));
    }
  }
}

/**
 * The figures of `workflowId` (of one version if given) from the rollups of its finished runs
 * and the metrics of those without a rollup (`live`, folded by the caller). `workflow` lists
 * every step and edge, as in workflowStats.
 */
export function rolledUpStats(rollups: WorkflowRollups, workflowId: string, version: number | undefined, live: readonly RunMetrics[], workflow?: Workflow): RolledUpStats {
  const acc = new StatsAccumulator(workflowId, workflow);
  for (const c of rollups.states(workflowId, version)) {
    acc.versions.add(c.version);
    acc.states[c.state as RunState] += c.runs;
    acc.runs += c.runs;
    acc.finished += c.runs;
    if (c.state === 'succeeded') acc.succeeded += c.runs;
    acc.withRetry += c.retried;
    acc.withCompensation += c.compensated;
    acc.withPerson += c.intervened;
    acc.totals.retries += c.retries;
    acc.totals.compensations += c.compensations;
    acc.totals.humanInterventions += c.interventions;
  }
  for (const c of rollups.steps(workflowId, version)) {
    if (c.failures !== 0) acc.failures[c.stepId] = (acc.failures[c.stepId] ?? 0) + c.failures;
    if (c.listed === 0 && !acc.hasStep(c.stepId)) continue;
    const x = acc.stepOf(c.stepId);
    x.s.runs += c.runs;
    x.s.activations += c.activations;
    x.s.attempts += c.attempts;
    x.s.retries += c.retries;
    if (c.outcome !== '' && c.listed !== 0) x.s.outcomes[c.outcome as keyof StepStats['outcomes']] = (x.s.outcomes[c.outcome as keyof StepStats['outcomes']] ?? 0) + c.listed;
  }
  for (const c of rollups.edges(workflowId, version)) {
    if (c.listed === 0 && !acc.hasEdge(c.edgeId)) continue;
    const x = acc.edgeOf(c.edgeId);
    x.decided += c.decided;
    x.taken += c.taken;
    acc.edgeRuns[c.edgeId] = (acc.edgeRuns[c.edgeId] ?? 0) + c.taking;
  }
  for (const c of rollups.costs.days(workflowId, version)) acc.cost.addDay(utcDay(c.day * DAY_MS), counted(c), c.succeeded === 1, c.currency);
  for (const c of rollups.costs.steps(workflowId, version)) acc.cost.addStep(c.stepId, counted(c));
  // The runs without a rollup, as workflowStats counts each run.
  for (const r of live) acc.addRun(r);
  readSamples(rollups.samples(workflowId, version), acc.durations, (id) => acc.stepOf(id));
  return { stats: acc.stats(), edgeRuns: acc.edgeRuns };
}
