// What a run's policy does to a step's automatic retries (docs/policies.md, "Retry caps" and
// "Forbidden actions"): the fewest attempts any rule allows. The validator refuses a definition
// that asks for more; the engine applies the same limit while it runs, so a run whose definition
// predates the policy, or whose snapshot carries it, never retries past it.
import type { Step } from '../definition/workflow-schema.ts';
import type { Policy } from './policy-schema.ts';
import { selects } from './selects.ts';

/** The most attempts the policy allows a step, and the rule that says so. */
export interface RetryLimit {
  maxAttempts: number;
  rule: string;
}

/**
 * The strictest limit the policy puts on `step`'s attempts: 1 under a `forbid automatic_retry`
 * rule, else the lowest `retries` cap; undefined when no rule selects the step.
 *
 * @example
 * policyRetryLimit(policy, chargeStep, 'payments'); // { maxAttempts: 1, rule: 'no-auto-retry-payments' }
 */
export function policyRetryLimit(policy: Policy | undefined, step: Pick<Step, 'id' | 'kind' | 'effect' | 'tags'>, workflowId: string): RetryLimit | undefined {
  if (policy === undefined) return undefined;
  let limit: RetryLimit | undefined;
  const consider = (maxAttempts: number, rule: string): void => {
    if (limit === undefined || maxAttempts < limit.maxAttempts) limit = { maxAttempts, rule };
  };
  for (const r of policy.forbid ?? []) if (r.action === 'automatic_retry' && selects(r.select, step, workflowId)) consider(1, r.id);
  for (const r of policy.retries ?? []) if (selects(r.select, step, workflowId)) consider(r.maxAttempts, r.id);
  return limit;
}
