// Which steps and edges a set of scenarios exercised: a step that started an attempt or settled
// other than skipped or cancelled; an edge that was taken. What no scenario reached is untested.
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { RunEvent } from '../../shared/events/run-event.ts';

export interface Coverage {
  steps: { covered: number; total: number; missing: string[] };
  edges: { covered: number; total: number; missing: string[] };
}

export function coverageOf(workflow: Workflow, runs: readonly (readonly RunEvent[])[]): Coverage {
  const steps = new Set<string>();
  const edges = new Set<string>();
  for (const events of runs) {
    for (const e of events) {
      if (e.step === null) continue;
      if (e.type === 'attempt_started') steps.add(e.step);
      if (e.type === 'step_settled') {
        const d = e.data as RunEvent<'step_settled'>['data'];
        if (d.outcome !== 'skipped' && d.outcome !== 'cancelled') steps.add(e.step);
        for (const x of d.edges) if (x.taken) edges.add(x.id);
      }
    }
  }
  const missingSteps = workflow.steps.map((s) => s.id).filter((id) => !steps.has(id));
  const missingEdges = workflow.edges.map((e) => e.id).filter((id) => !edges.has(id));
  return {
    steps: { covered: workflow.steps.length - missingSteps.length, total: workflow.steps.length, missing: missingSteps },
    edges: { covered: workflow.edges.length - missingEdges.length, total: workflow.edges.length, missing: missingEdges },
  };
}
