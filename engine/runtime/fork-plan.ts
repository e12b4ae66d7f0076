// What a fork takes from its source run: the latest accepted evidence of every step that is not
// STEP or downstream of it, and the unknown outcomes of external steps there (so the fork never
// repeats an effect whose outcome is unknown).
import { stepActionRefusal } from '../../shared/run/action-rules.ts';
import { StoreError } from '../store/store-error.ts';
import { indexDefinition } from '../../shared/run/definition-index.ts';
import type { Evidence, RunModel } from '../../shared/run/run-model.ts';

export function forkPlan(source: RunModel, fromStep: string): { evidence: Evidence[]; unknowns: RunModel['unknowns'] } {
  const refusal = stepActionRefusal(source, fromStep, 'fork');
  if (refusal !== undefined) throw new StoreError(refusal.code, refusal.message);
  const index = indexDefinition(source.workflow);
  const downstream = new Set([fromStep]);
  const queue = [fromStep];
  for (let k = 0; k < queue.length; k++) {
    for (const e of index.out.get(queue[k] as string) ?? []) {
      if (!downstream.has(e.edge.to)) {
        downstream.add(e.edge.to);
        queue.push(e.edge.to);
      }
    }
  }
  const evidence: Evidence[] = [];
  const unknowns: RunModel['unknowns'] = [];
  for (const [id, s] of source.steps) {
    if (downstream.has(id)) continue;
    // A pin says what a step gave in that debug run only: the fork runs the step for real.
    if (s.evidence !== null && s.evidence.pinned !== true) evidence.push(s.evidence);
    else if (s.outcome === 'unknown') {
      const a = s.attempts.filter((x) => x.state === 'unknown' && x.effect === 'external').pop();
      if (a) unknowns.push({ stepId: id, inputHash: a.inputHash, inputRevision: 0, fromRun: source.runId, activation: a.activation, attempt: a.number });
    }
  }
  for (const u of source.unknowns) if (!downstream.has(u.stepId) && !unknowns.some((x) => x.stepId === u.stepId && x.inputHash === u.inputHash)) unknowns.push(u);
  return { evidence, unknowns };
}
