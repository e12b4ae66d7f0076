// What the insights page draws on the workflow graph, from the report: per step its latency p50
// and p95 (the report's `latencyMs`, activation to settlement) and how many runs reached it; per
// edge the report's frequency (taken ÷ decided) for its label, and the share of runs that took it
// at least once for its thickness: the server's count over all runs (`edgeRuns`) when the report
// lists only the newest runs, else counted from the per-run rows.
import type { WorkflowReport } from '../../shared/api/workflow-stats.ts';
import type { EdgeStatsMark, GraphStats, StepStatsMark } from '../graph/to-flow.ts';

export function graphStats(report: WorkflowReport): GraphStats {
  const of = report.stats.runs;
  const steps: Record<string, StepStatsMark> = {};
  for (const [id, s] of Object.entries(report.stats.steps)) {
    steps[id] = { p50: s.latencyMs?.p50 ?? null, p95: s.latencyMs?.p95 ?? null, runs: s.runs, of };
  }
  const edges: Record<string, EdgeStatsMark> = {};
  for (const [id, e] of Object.entries(report.stats.edges)) {
    const taking = report.edgeRuns?.[id] ?? report.runs.filter((r) => (r.edges[id]?.taken ?? 0) > 0).length;
    edges[id] = { frequency: e.frequency, taken: e.taken, decided: e.decided, share: of === 0 ? 0 : taking / of };
  }
  return { steps, edges };
}
