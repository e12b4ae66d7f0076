// A workflow's figures over its runs, from the runs' metrics (themselves folds of the event log).
// Rates are fractions (0..1) and null when there is nothing to divide by; percentiles are by
// nearest rank (p50 of 1, 2, 3, 4 is 2), and null with no samples.
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { RunState } from '../../shared/definition/names.ts';
import { RUN_STATES } from '../../shared/definition/names.ts';
import type { RunMetrics } from './run-metrics.ts';
import type { EdgeStats, Percentiles, StepStats, WorkflowStats } from '../../shared/api/workflow-stats.ts';

// The shapes are the shared API's (shared/api/workflow-stats.ts), where each field is described.
export type { EdgeStats, Percentiles, StepStats, WorkflowStats } from '../../shared/api/workflow-stats.ts';

/** Nearest-rank percentile of ascending `sorted` (q in (0, 1]). */
export function percentile(sorted: readonly number[], q: number): number {
  const i = Math.max(0, Math.ceil(q * sorted.length) - 1);
  return sorted[Math.min(i, sorted.length - 1)] ?? 0;
}

function percentiles(values: readonly number[]): Percentiles | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), max: sorted[sorted.length - 1] ?? 0, count: sorted.length };
}

const rate = (n: number, of: number): number | null => (of === 0 ? null : n / of);

/**
 * Aggregates run metrics of one workflow. `workflow` (its latest definition) lists every step and
 * edge, so those no run reached show as zero rather than missing.
 */
export function workflowStats(workflowId: string, runs: readonly RunMetrics[], workflow?: Workflow): WorkflowStats {
  const states = Object.fromEntries(RUN_STATES.map((s) => [s, 0])) as Record<RunState, number>;
  const steps = new Map<string, { s: StepStats; latencies: number[]; active: number[] }>();
  const edges = new Map<string, EdgeStats>();
  const stepOf = (id: string): { s: StepStats; latencies: number[]; active: number[] } => {
    let x = steps.get(id);
    if (x === undefined) {
      x = { s: { runs: 0, activations: 0, attempts: 0, retries: 0, outcomes: {}, latencyMs: null, activeMs: null }, latencies: [], active: [] };
      steps.set(id, x);
    }
    return x;
  };
  const edgeOf = (id: string): EdgeStats => {
    let x = edges.get(id);
    if (x === undefined) {
      x = { decided: 0, taken: 0, frequency: null };
      edges.set(id, x);
    }
    return x;
  };
  for (const s of workflow?.steps ?? []) stepOf(s.id);
  for (const e of workflow?.edges ?? []) edgeOf(e.id);
  const failures: Record<string, number> = {};
  const durations: number[] = [];
  let finished = 0;
  let succeeded = 0;
  let withRetry = 0;
  let withCompensation = 0;
  let withPerson = 0;
  const totals = { retries: 0, compensations: 0, humanInterventions: 0 };
  const versions = new Set<number>();
  for (const r of runs) {
    versions.add(r.version);
    states[r.state] += 1;
    if (r.finished) {
      finished += 1;
      durations.push(r.durationMs);
      if (r.state === 'succeeded') succeeded += 1;
    }
    if (r.retries > 0) withRetry += 1;
    if (r.compensations > 0) withCompensation += 1;
    if (r.humanInterventions > 0) withPerson += 1;
    totals.retries += r.retries;
    totals.compensations += r.compensations;
    totals.humanInterventions += r.humanInterventions;
    if (r.failure?.step != null) failures[r.failure.step] = (failures[r.failure.step] ?? 0) + 1;
    for (const [id, m] of Object.entries(r.steps)) {
      const x = stepOf(id);
      if (m.activations > 0) {
        x.s.runs += 1;
        x.active.push(m.activeMs);
      }
      x.s.activations += m.activations;
      x.s.attempts += m.attempts;
      x.s.retries += m.retries;
      if (m.outcome !== null) x.s.outcomes[m.outcome] = (x.s.outcomes[m.outcome] ?? 0) + 1;
      x.latencies.push(...m.latenciesMs);
    }
    for (const [id, d] of Object.entries(r.edges)) {
      const x = edgeOf(id);
      x.decided += d.decided;
      x.taken += d.taken;
    }
  }
  for (const x of edges.values()) x.frequency = rate(x.taken, x.decided);
  for (const x of steps.values()) {
    x.s.latencyMs = percentiles(x.latencies);
    x.s.activeMs = percentiles(x.active);
  }
  return {
    workflowId,
    versions: [...versions].sort((a, b) => a - b),
    runs: runs.length,
    states,
    finished,
    successRate: rate(succeeded, finished),
    retryRate: rate(withRetry, runs.length),
    compensationRate: rate(withCompensation, runs.length),
    humanInterventionRate: rate(withPerson, runs.length),
    totals,
    durationMs: percentiles(durations),
    failures,
    steps: Object.fromEntries([...steps].map(([id, x]) => [id, x.s])),
    edges: Object.fromEntries(edges),
  };
}
