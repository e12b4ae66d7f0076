// Which `forbid` rule of a run's policy forbids an operator's action (docs/policies.md, "Forbidden
// actions"). Judged against the policy the run started under (RunModel.policy), never the file as
// it is now: a policy change does not silently change runs in flight. A step action (retry, skip,
// resolve, keep, fork from a step) is forbidden when a rule for it selects the step; a run action
// (cancel, revise) when a rule for it selects any step of the run's workflow (a rule without
// `select` always does).
import type { Step, Workflow } from '../definition/workflow-schema.ts';
import type { ForbiddableAction, Policy } from './policy-schema.ts';
import { ruleFor, selects } from './selects.ts';

type ForbidRule = NonNullable<Policy['forbid']>[number];

const rulesFor = (policy: Policy | undefined, action: ForbiddableAction): ForbidRule[] => (policy?.forbid ?? []).filter((r) => r.action === action);

/**
 * The rule that forbids `action` on `step`, or undefined.
 *
 * @example
 * forbiddingRule(run.policy?.rules, 'skip', step, run.workflow.id)?.id; // 'no-skip-payments'
 */
export function forbiddingRule(policy: Policy | undefined, action: ForbiddableAction, step: Pick<Step, 'id' | 'kind' | 'effect' | 'tags'>, workflowId: string): ForbidRule | undefined {
  return ruleFor(rulesFor(policy, action), step, workflowId);
}

/**
 * The rule that forbids run action `action` (cancel, revise) on runs of `workflow`, or undefined.
 *
 * @example
 * runForbiddingRule(run.policy?.rules, 'cancel', run.workflow)?.id; // 'never-cancel-payments'
 */
export function runForbiddingRule(policy: Policy | undefined, action: 'cancel' | 'revise', workflow: Workflow): ForbidRule | undefined {
  return rulesFor(policy, action).find((r) => r.select === undefined || workflow.steps.some((s) => selects(r.select, s, workflow.id)));
}

/** The words of a refusal by a rule: `policy "id" forbids …`, with the rule's description when it has one. */
export function forbiddenMessage(rule: ForbidRule, what: string): string {
  return `policy "${rule.id}" forbids ${what}${rule.description === undefined ? '' : ` (${rule.description})`}; the workspace policy the run started under decides this; nothing was changed`;
}
