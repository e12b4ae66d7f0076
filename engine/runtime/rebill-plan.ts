// The steps a retry, fork or revision will run again, from the act's own plan, so the estimate
// shown before it (shared/cost/rebill.ts) names the steps the act then runs: a retry runs its step
// and decides again what followed it (reopen-plan.ts: a step that did work there runs again if the
// new outcome leads to it; an external one with unchanged input reuses its evidence, so it is not
// listed); a fork runs its step and, if reached, every step whose evidence it does not take
// (fork-plan.ts); a revision runs its plan's `rerun` steps and, if reached, its `later` ones
// (revision-plan.ts; `ask` waits for a person, who decides then). A replay bills nothing.
import type { RebillEstimate } from '../../shared/cost/rebill-estimate.ts';
import type { RevisePlanStep } from '../../shared/api/input-commands.ts';
import { rebillEstimate, type RebillCandidate } from '../../shared/cost/rebill.ts';
import { indexDefinition } from '../../shared/run/definition-index.ts';
import type { RunModel } from '../../shared/run/run-model.ts';
import { forkPlan } from './fork-plan.ts';
import { reopenPlan } from './reopen-plan.ts';

/** What an operator's retry of `stepId` will bill again. */
export function retryRebill(run: RunModel, stepId: string): RebillEstimate {
  const index = indexDefinition(run.workflow);
  const plan = reopenPlan(run, index, stepId, `retry of "${stepId}"`);
  const candidates: RebillCandidate[] = [{ stepId, when: 'runs again' }];
  for (const r of plan?.data.steps ?? []) {
    if (r.state === 'skipped' || r.state === 'cancelled') continue;
    if (index.steps.get(r.stepId)?.effect === 'external') continue;
    candidates.push({ stepId: r.stepId, when: 'if reached' });
  }
  return rebillEstimate('retry', runSteps(run), candidates);
}

/** What a fork of `source` from `fromStep` will bill again (refused as the fork is, by forkPlan). */
export function forkRebill(source: RunModel, fromStep: string): RebillEstimate {
  const taken = new Set(forkPlan(source, fromStep).evidence.map((e) => e.stepId));
  const candidates: RebillCandidate[] = [{ stepId: fromStep, when: 'runs again' }];
  for (const [id, s] of source.steps) if (id !== fromStep && !taken.has(id) && s.attempts.length > 0) candidates.push({ stepId: id, when: 'if reached' });
  return rebillEstimate('fork', runSteps(source), candidates);
}

/** What a revision with `plan` (planRevision's steps) will bill again. */
export function revisionRebill(run: RunModel, plan: readonly RevisePlanStep[]): RebillEstimate {
  const candidates = plan.flatMap((p): RebillCandidate[] => (p.action === 'rerun' ? [{ stepId: p.stepId, when: 'runs again' }] : p.action === 'later' ? [{ stepId: p.stepId, when: 'if reached' }] : []));
  return rebillEstimate('revise', runSteps(run), candidates);
}

/** A replay answers every step from the recorded run: it bills nothing. */
export function replayRebill(run: RunModel): RebillEstimate {
  return rebillEstimate('replay', runSteps(run), []);
}

function runSteps(run: RunModel): Parameters<typeof rebillEstimate>[1] {
  return { steps: [...run.steps.values()], workflow: run.workflow };
}
