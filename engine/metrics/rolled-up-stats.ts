// A workflow's figures from the per-workflow rollups (engine/store/workflow-rollups.ts) plus a
// fold of each run still going: the same WorkflowStats that workflowStats gives over every run's
// metrics (scannedWorkflowReport is the reference the tests compare it with), without reading
// each finished run. Counters are summed; percentiles are taken over every stored sample and the
// live runs' ones, sorted as float64 arrays (exact nearest rank, as workflowStats).
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { RUN_STATES, type RunState } from '../../shared/definition/names.ts';
import type { EdgeStats, Percentiles, RunMetrics, StepStats, WorkflowStats } from '../../shared/api/workflow-stats.ts';
import type { WorkflowRollups } from '../store/workflow-rollups.ts';

/** The figures, and per edge how many runs took it at least once. */
export interface RolledUpStats {
  stats: WorkflowStats;
  edgeRuns: Record<string, number>;
}

const rate = (n: number, of: number): number | null => (of === 0 ? null : n / of);

/** Nearest-rank p50, p95 and max of `values` (sorted here, as numbers), as workflowStats takes them. */
function percentilesOf(values: Float64Array): Percentiles | null {
  if (values.length === 0) return null;
  values.sort();
  const at = (q: number): number => values[Math.min(Math.max(0, Math.ceil(q * values.length) - 1), values.length - 1)] ?? 0;
  return { p50: at(0.5), p95: at(0.95), max: values[values.length - 1] ?? 0, count: values.length };
}

/** Growing float64 lists, one per sample set (a typed array sorts numbers without a comparator). */
class Samples {
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

interface StepAcc {
  s: StepStats;
  latencies: Samples;
  active: Samples;
}

/**
 * The figures of `workflowId` (of one version if given) from the rollups of its finished runs
 * and the metrics of those without a rollup (`live`, folded by the caller). `workflow` lists
 * every step and edge, as in workflowStats.
 */
export function rolledUpStats(rollups: WorkflowRollups, workflowId: string, version: number | undefined, live: readonly RunMetrics[], workflow?: Workflow): RolledUpStats {
  const states = Object.fromEntries(RUN_STATES.map((s) => [s, 0])) as Record<RunState, number>;
  const versions = new Set<number>();
  let runs = 0;
  let finished = 0;
  let succeeded = 0;
  let withRetry = 0;
  let withCompensation = 0;
  let withPerson = 0;
  const totals = { retries: 0, compensations: 0, humanInterventions: 0 };
  for (const c of rollups.states(workflowId, version)) {
    versions.add(c.version);
    states[c.state as RunState] += c.runs;
    runs += c.runs;
    finished += c.runs;
    if (c.state === 'succeeded') succeeded += c.runs;
    withRetry += c.retried;
    withCompensation += c.compensated;
    withPerson += c.intervened;
    totals.retries += c.retries;
    totals.compensations += c.compensations;
    totals.humanInterventions += c.interventions;
  }
  const durations = new Samples();
  const failures: Record<string, number> = {};
  const steps = new Map<string, StepAcc>();
  const edges = new Map<string, EdgeStats>();
  const edgeRuns: Record<string, number> = {};
  const stepOf = (id: string): StepAcc => {
    let x = steps.get(id);
    if (x === undefined) {
      x = { s: { runs: 0, activations: 0, attempts: 0, retries: 0, outcomes: {}, latencyMs: null, activeMs: null }, latencies: new Samples(), active: new Samples() };
      steps.set(id, x);
    }
    return x;
  };
  const edgeOf = (id: string): EdgeStats => {
    let x = edges.get(id);
    if (x === undefined) {
      x = { decided: 0, taken: 0, frequency: null };
      edges.set(id, x);
      edgeRuns[id] = 0;
    }
    return x;
  };
  for (const s of workflow?.steps ?? []) stepOf(s.id);
  for (const e of workflow?.edges ?? []) edgeOf(e.id);
  for (const c of rollups.steps(workflowId, version)) {
    if (c.failures !== 0) failures[c.stepId] = (failures[c.stepId] ?? 0) + c.failures;
    if (c.listed === 0 && !steps.has(c.stepId)) continue;
    const x = stepOf(c.stepId);
    x.s.runs += c.runs;
    x.s.activations += c.activations;
    x.s.attempts += c.attempts;
    x.s.retries += c.retries;
    if (c.outcome !== '' && c.listed !== 0) x.s.outcomes[c.outcome as keyof StepStats['outcomes']] = (x.s.outcomes[c.outcome as keyof StepStats['outcomes']] ?? 0) + c.listed;
  }
  for (const c of rollups.edges(workflowId, version)) {
    if (c.listed === 0 && !edges.has(c.edgeId)) continue;
    const x = edgeOf(c.edgeId);
    x.decided += c.decided;
    x.taken += c.taken;
    edgeRuns[c.edgeId] = (edgeRuns[c.edgeId] ?? 0) + c.taking;
  }
  // The runs without a rollup, as workflowStats counts each run.
  for (const r of live) {
    versions.add(r.version);
    states[r.state] += 1;
    runs += 1;
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
      for (const ms of m.latenciesMs) x.latencies.push(ms);
    }
    for (const [id, d] of Object.entries(r.edges)) {
      const x = edgeOf(id);
      x.decided += d.decided;
      x.taken += d.taken;
      if (d.taken > 0) edgeRuns[id] = (edgeRuns[id] ?? 0) + 1;
    }
  }
  readSamples(rollups.samples(workflowId, version), durations, stepOf);
  for (const x of edges.values()) x.frequency = rate(x.taken, x.decided);
  for (const x of steps.values()) {
    x.s.latencyMs = percentilesOf(x.latencies.values());
    x.s.activeMs = percentilesOf(x.active.values());
  }
  const stats: WorkflowStats = {
    workflowId,
    versions: [...versions].sort((a, b) => a - b),
    runs,
    states,
    finished,
    successRate: rate(succeeded, finished),
    retryRate: rate(withRetry, runs),
    compensationRate: rate(withCompensation, runs),
    humanInterventionRate: rate(withPerson, runs),
    totals,
    durationMs: percentilesOf(durations.values()),
    failures,
    steps: Object.fromEntries([...steps].map(([id, x]) => [id, x.s])),
    edges: Object.fromEntries(edges),
  };
  return { stats, edgeRuns };
}
