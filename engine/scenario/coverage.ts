// Which steps and edges a set of scenarios exercised: a step that started an attempt or settled
// other than skipped or cancelled; an edge that was taken. What no scenario reached is untested.
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { RunMetrics } from '../metrics/run-metrics.ts';

export interface Coverage {
  steps: { covered: number; total: number; missing: string[] };
  edges: { covered: number; total: number; missing: string[] };
}

export function coverageOf(workflow: Workflow, runs: readonly RunMetrics[]): Coverage {
  const reached = (id: string): boolean =>
    runs.some((m) => {
      const s = m.steps[id];
      return s !== undefined && (s.attempts > 0 || (s.outcome !== null && s.outcome !== 'skipped' && s.outcome !== 'cancelled'));
    });
  const taken = (id: string): boolean => runs.some((m) => (m.edges[id]?.taken ?? 0) > 0);
  const missingSteps = workflow.steps.map((s) => s.id).filter((id) => !reached(id));
  const missingEdges = workflow.edges.map((e) => e.id).filter((id) => !taken(id));
  return {
    steps: { covered: workflow.steps.length - missingSteps.length, total: workflow.steps.length, missing: missingSteps },
    edges: { covered: workflow.edges.length - missingEdges.length, total: workflow.edges.length, missing: missingEdges },
  };
}
