// A workflow's figures from the per-workflow rollups (engine/store/workflow-rollups.ts) plus a
// fold of each run still going: the same WorkflowStats that workflowStats gives over every run's
// metrics (scannedWorkflowReport is the reference the tests compare it with), without reading
// each finished run. Counters are summed; a percentile over the stored samples and the live runs'
// is the nearest-rank value of their union, found from a few stored values around its rank.
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { RUN_STATES, type RunState } from '../../shared/definition/names.ts';
import type { EdgeStats, Percentiles, RunMetrics, StepStats, WorkflowStats } from '../../shared/api/workflow-stats.ts';
import type { SampleKind, WorkflowRollups } from '../store/workflow-rollups.ts';

/** The figures, and per edge how many runs took it at least once. */
export interface RolledUpStats {
  stats: WorkflowStats;
  edgeRuns: Record<string, number>;
}

const rate = (n: number, of: number): number | null => (of === 0 ? null : n / of);

/**
 * Nearest-rank p50, p95 and max over the union of `stored` samples (ascending, read by rank
 * windows) and `live` ones. The k-th smallest of two sorted lists is the least, over the ways of
 * taking t from one and k − t from the other, of the larger of their last taken; with few live
 * samples only the stored values just below the rank can be those.
 */
export function mergedPercentiles(storedCount: number, read: (offset: number, limit: number) => number[], storedMax: () => number | undefined, live: readonly number[]): Percentiles | null {
  const total = storedCount + live.length;
  if (total === 0) return null;
  const sortedLive = Float64Array.from(live).sort();
  const at = (q: number): number => {
    const r = Math.min(Math.max(0, Math.ceil(q * total) - 1), total - 1);
    const tMin = Math.max(0, r + 1 - storedCount);
    const tMax = Math.min(sortedLive.length, r + 1);
    const lo = Math.max(0, r - tMax);
    const hi = r - tMin;
    const window = hi >= lo ? read(lo, hi - lo + 1) : [];
    let best = Infinity;
    for (let t = tMin; t <= tMax; t++) {
      const fromLive = t === 0 ? -Infinity : (sortedLive[t - 1] ?? -Infinity);
      const fromStored = r - t < 0 ? -Infinity : (window[r - t - lo] ?? -Infinity);
      best = Math.min(best, Math.max(fromLive, fromStored));
    }
    return best;
  };
  const max = Math.max(storedCount === 0 ? -Infinity : (storedMax() ?? -Infinity), sortedLive[sortedLive.length - 1] ?? -Infinity);
  return { p50: at(0.5), p95: at(0.95), max, count: total };
}

interface StepAcc {
  s: StepStats;
  settled: number;
  activeRuns: number;
  latencies: number[];
  active: number[];
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
  const storedDurations = finished;
  const durations: number[] = [];
  const failures: Record<string, number> = {};
  const steps = new Map<string, StepAcc>();
  const edges = new Map<string, EdgeStats>();
  const edgeRuns: Record<string, number> = {};
  const stepOf = (id: string): StepAcc => {
    let x = steps.get(id);
    if (x === undefined) {
      x = { s: { runs: 0, activations: 0, attempts: 0, retries: 0, outcomes: {}, latencyMs: null, activeMs: null }, settled: 0, activeRuns: 0, latencies: [], active: [] };
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
    x.settled += c.settled;
    x.activeRuns += c.runs;
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
      x.latencies.push(...m.latenciesMs);
    }
    for (const [id, d] of Object.entries(r.edges)) {
      const x = edgeOf(id);
      x.decided += d.decided;
      x.taken += d.taken;
      if (d.taken > 0) edgeRuns[id] = (edgeRuns[id] ?? 0) + 1;
    }
  }
  const percentilesOf = (kind: SampleKind, stepId: string, stored: number, liveValues: readonly number[]): Percentiles | null =>
    mergedPercentiles(
      stored,
      (offset, limit) => rollups.samples(workflowId, version, kind, stepId, offset, limit, stored),
      () => rollups.maxSample(workflowId, version, kind, stepId),
      liveValues,
    );
  for (const x of edges.values()) x.frequency = rate(x.taken, x.decided);
  for (const [id, x] of steps) {
    x.s.latencyMs = percentilesOf('latency', id, x.settled, x.latencies);
    x.s.activeMs = percentilesOf('active', id, x.activeRuns, x.active);
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
    durationMs: percentilesOf('duration', '', storedDurations, durations),
    failures,
    steps: Object.fromEntries([...steps].map(([id, x]) => [id, x.s])),
    edges: Object.fromEntries(edges),
  };
  return { stats, edgeRuns };
}
