// A workflow's figures over its runs, from the runs' metrics (themselves folds of the event log).
// Rates are fractions (0..1) and null when there is nothing to divide by; percentiles are by
// nearest rank (p50 of 1, 2, 3, 4 is 2), and null with no samples.
//
// One accumulator (StatsAccumulator) holds how a run counts: workflowStats adds every run's
// metrics to it, and rolled-up-stats.ts adds the per-workflow rollups' sums and samples, then the
// runs still going, to the same one, so the two reports cannot count a run differently.
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { RunState } from '../../shared/definition/names.ts';
import { RUN_STATES } from '../../shared/definition/names.ts';
import type { RunMetrics } from './run-metrics.ts';
import { CostAccumulator } from './cost-metrics.ts';
import type { EdgeStats, Percentiles, StepStats, WorkflowStats } from '../../shared/api/workflow-stats.ts';

// The shapes are the shared API's (shared/api/workflow-stats.ts), where each field is described.
export type { EdgeStats, Percentiles, StepStats, WorkflowStats } from '../../shared/api/workflow-stats.ts';

/** Nearest-rank percentile of ascending `sorted` (q in (0, 1]). */
export function percentile(sorted: ArrayLike<number>, q: number): number {
  const i = Math.max(0, Math.ceil(q * sorted.length) - 1);
  return sorted[Math.min(i, sorted.length - 1)] ?? 0;
}

/** Nearest-rank p50, p95 and max of `values` (sorted here, in place, as numbers). */
function percentilesOf(values: Float64Array): Percentiles | null {
  if (values.length === 0) return null;
  values.sort();
  return { p50: percentile(values, 0.5), p95: percentile(values, 0.95), max: values[values.length - 1] ?? 0, count: values.length };
}

const rate = (n: number, of: number): number | null => (of === 0 ? null : n / of);

/** A growing float64 list of samples (a typed array sorts numbers without a comparator). */
export class Samples {
  private buf = new Float64Array(64);
  length = 0;

  push(x: number): void {
    if (this.length === this.buf.length) {
      const bigger = new Float64Array(this.buf.length * 2);
      bigger.set(this.buf);
      this.buf = bigger;
    }
    this.buf[this.length++] = x;
  }

  values(): Float64Array {
    return this.buf.subarray(0, this.length);
  }
}

/** One step's sums so far, and its latency and active-time samples. */
export interface StepAcc {
  s: StepStats;
  latencies: Samples;
  active: Samples;
}

/** A workflow's figures, run by run (addRun) or from sums kept elsewhere (the public fields). */
export class StatsAccumulator {
  readonly states = Object.fromEntries(RUN_STATES.map((s) => [s, 0])) as Record<RunState, number>;
  readonly versions = new Set<number>();
  readonly totals = { retries: 0, compensations: 0, humanInterventions: 0 };
  readonly durations = new Samples();
  readonly failures: Record<string, number> = {};
  /** Per edge, the runs that took it at least once. */
  readonly edgeRuns: Record<string, number> = {};
  runs = 0;
  finished = 0;
  succeeded = 0;
  withRetry = 0;
  withCompensation = 0;
  withPerson = 0;
  private readonly steps = new Map<string, StepAcc>();
  private readonly edges = new Map<string, EdgeStats>();
  /** What the runs cost (cost-metrics.ts). */
  readonly cost = new CostAccumulator();

  /** `workflow` (its latest definition) lists every step and edge, so those no run reached show as zero. */
  constructor(
    private readonly workflowId: string,
    workflow?: Workflow,
  ) {
    for (const s of workflow?.steps ?? []) this.stepOf(s.id);
    for (const e of workflow?.edges ?? []) this.edgeOf(e.id);
  }

  hasStep(id: string): boolean {
    return this.steps.has(id);
  }

  hasEdge(id: string): boolean {
    return this.edges.has(id);
  }

  stepOf(id: string): StepAcc {
    let x = this.steps.get(id);
    if (x === undefined) {
      x = { s: { runs: 0, activations: 0, attempts: 0, retries: 0, outcomes: {}, latencyMs: null, activeMs: null }, latencies: new Samples(), active: new Samples() };
      this.steps.set(id, x);
    }
    return x;
  }

  edgeOf(id: string): EdgeStats {
    let x = this.edges.get(id);
    if (x === undefined) {
      x = { decided: 0, taken: 0, frequency: null };
      this.edges.set(id, x);
      this.edgeRuns[id] = 0;
    }
    return x;
  }

  /** Counts one run's metrics. */
  addRun(r: RunMetrics): void {
    this.versions.add(r.version);
    this.states[r.state] += 1;
    this.runs += 1;
    if (r.finished) {
      this.finished += 1;
      this.durations.push(r.durationMs);
      if (r.state === 'succeeded') this.succeeded += 1;
    }
    if (r.retries > 0) this.withRetry += 1;
    if (r.compensations > 0) this.withCompensation += 1;
    if (r.humanInterventions > 0) this.withPerson += 1;
    this.totals.retries += r.retries;
    this.totals.compensations += r.compensations;
    this.totals.humanInterventions += r.humanInterventions;
    if (r.failure?.step != null) this.failures[r.failure.step] = (this.failures[r.failure.step] ?? 0) + 1;
    for (const [id, m] of Object.entries(r.steps)) {
      const x = this.stepOf(id);
      if (m.activations > 0) {
        x.s.runs += 1;
        x.active.push(m.activeMs);
      }
      x.s.activations += m.activations;
      x.s.attempts += m.attempts;
      x.s.retries += m.retries;
      if (m.outcome !== null) x.s.outcomes[m.outcome] = (x.s.outcomes[m.outcome] ?? 0) + 1;
      for (const ms of m.latenciesMs) x.latencies.push(ms);
    }
    this.cost.addRun(r);
    for (const [id, d] of Object.entries(r.edges)) {
      const x = this.edgeOf(id);
      x.decided += d.decided;
      x.taken += d.taken;
      if (d.taken > 0) this.edgeRuns[id] = (this.edgeRuns[id] ?? 0) + 1;
    }
  }

  /** The figures over everything added. */
  stats(): WorkflowStats {
    for (const x of this.edges.values()) x.frequency = rate(x.taken, x.decided);
    for (const x of this.steps.values()) {
      x.s.latencyMs = percentilesOf(x.latencies.values());
      x.s.activeMs = percentilesOf(x.active.values());
    }
    return {
      workflowId: this.workflowId,
      versions: [...this.versions].sort((a, b) => a - b),
      runs: this.runs,
      states: this.states,
      finished: this.finished,
      successRate: rate(this.succeeded, this.finished),
      retryRate: rate(this.withRetry, this.runs),
      compensationRate: rate(this.withCompensation, this.runs),
      humanInterventionRate: rate(this.withPerson, this.runs),
      totals: this.totals,
      durationMs: percentilesOf(this.durations.values()),
      failures: this.failures,
      steps: Object.fromEntries([...this.steps].map(([id, x]) => [id, x.s])),
      edges: Object.fromEntries(this.edges),
      cost: this.cost.stats(this.succeeded),
    };
  }
}

/**
 * Aggregates run metrics of one workflow. `workflow` (its latest definition) lists every step and
 * edge, so those no run reached show as zero rather than missing.
 */
export function workflowStats(workflowId: string, runs: readonly RunMetrics[], workflow?: Workflow): WorkflowStats {
  const acc = new StatsAccumulator(workflowId, workflow);
  for (const r of runs) acc.addRun(r);
  return acc.stats();
}
