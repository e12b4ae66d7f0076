// What the action dialogs need to know about a run beyond its RunDetail fields: whether a step
// has external effects, which steps lie downstream of one, a step's schemas, and the words for an
// action the engine does not permit now.
import type { RunDetail, StepDetail } from '../../../shared/api/run-detail.ts';
import type { RevisePlanStep } from '../../../shared/api/input-commands.ts';
import type { Step } from '../../../shared/definition/workflow-schema.ts';
import { stateWords } from '../../core/state-words.ts';

export function stepDefinition(detail: RunDetail, stepId: string): Step | undefined {
  return detail.definition?.steps.find((s) => s.id === stepId);
}

export function stepDetail(detail: RunDetail, stepId: string): StepDetail | undefined {
  return detail.steps.find((s) => s.id === stepId);
}

/** Whether acting on the step can reach outside Weft: its definition or an attempt says external. */
export function isExternal(detail: RunDetail, stepId: string): boolean {
  if (stepDefinition(detail, stepId)?.effect === 'external') return true;
  return stepDetail(detail, stepId)?.attempts.some((a) => a.effect === 'external') ?? false;
}

/** `from` and every step an edge path leads to from it (what a fork from `from` runs again). */
export function downstream(detail: RunDetail, from: string): string[] {
  const edges = detail.definition?.edges ?? [];
  const seen = new Set([from]);
  const queue = [from];
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    for (const e of edges) {
      if (e.from === id && !seen.has(e.to)) {
        seen.add(e.to);
        queue.push(e.to);
      }
    }
  }
  return [...seen];
}

/** External steps among `ids`, in the order given. */
export function externalAmong(detail: RunDetail, ids: readonly string[]): string[] {
  return ids.filter((id) => isExternal(detail, id));
}

/** External steps a revision plan runs again (the ones that need a confirmation). */
export function externalReruns(detail: RunDetail, plan: readonly RevisePlanStep[]): string[] {
  return externalAmong(
    detail,
    plan.filter((p) => p.action === 'rerun').map((p) => p.stepId),
  );
}

/** The input the step's latest attempt ran with: what a retry prefills. */
export function lastInput(step: StepDetail | undefined): StepDetail['attempts'][number]['input'] | undefined {
  return step?.attempts.at(-1)?.input;
}

/** A disabled button's title: the engine lists only what it permits, so say what holds it. */
export function notPermitted(action: string, state: string, what: 'run' | 'step'): string {
  return `The engine does not permit ${action} now: the ${what} ${stateWords(state, what)}.`;
}

/** "a, b and c". */
export function listWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}
