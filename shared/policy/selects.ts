// Which steps a policy rule applies to (docs/policies.md, "Selectors"): one home for the matching
// the validator's policy checks, the engine and the operator-action rules all use.
import type { Step } from '../definition/workflow-schema.ts';
import type { StepSelector } from './policy-schema.ts';

/** The fields of a step a selector reads. */
export type SelectableStep = Pick<Step, 'id' | 'kind' | 'effect' | 'tags'>;

/**
 * Whether `selector` picks `step` of workflow `workflowId`: every field the selector gives must
 * match (AND), any value listed within a field matches (OR); a step without `effect` is `none`;
 * no selector picks every step.
 *
 * @example
 * selects({ effects: ['external'], tags: ['payment'] }, { id: 'charge', kind: 'http', effect: 'external', tags: ['payment'] }, 'order-flow'); // true
 * selects({ kinds: ['agent'] }, { id: 'charge', kind: 'http' }, 'order-flow'); // false
 */
export function selects(selector: StepSelector | undefined, step: SelectableStep, workflowId: string): boolean {
  if (selector === undefined) return true;
  if (selector.steps !== undefined && !selector.steps.includes(step.id)) return false;
  if (selector.kinds !== undefined && !selector.kinds.includes(step.kind)) return false;
  if (selector.effects !== undefined && !selector.effects.includes(step.effect ?? 'none')) return false;
  if (selector.tags !== undefined && !selector.tags.some((t) => step.tags?.includes(t) === true)) return false;
  if (selector.workflows !== undefined && !selector.workflows.includes(workflowId)) return false;
  return true;
}

/**
 * The first rule of `rules` that selects the step, for the engine's and the action rules' "which
 * rule forbids this" questions.
 *
 * @example
 * ruleFor(policy.forbid?.filter((r) => r.action === 'skip'), step, 'order-flow')?.id; // 'no-skip-payments'
 */
export function ruleFor<R extends { select?: StepSelector | undefined }>(rules: readonly R[] | undefined, step: SelectableStep, workflowId: string): R | undefined {
  return rules?.find((r) => selects(r.select, step, workflowId));
}
