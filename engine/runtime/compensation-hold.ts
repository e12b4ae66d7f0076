// `forbid compensation_without_approval` (docs/policies.md): the engine never starts, by itself,
// the compensation of a step such a rule selects. The compensation is activated (the step it
// offsets is `compensating`) and escalated at once, without an attempt, so the run needs
// attention; an operator's retry of the compensation step is the approval and runs it once, as
// the compensation; a skip settles it with an output a person gives (the effect undone by hand).
import type { DefinitionIndex } from '../../shared/run/definition-index.ts';
import type { RunModel, StepRuntime } from '../../shared/run/run-model.ts';
import { forbiddingRule } from '../../shared/policy/forbidden-actions.ts';

/**
 * Why the compensation `by` of step `compensates` waits for a person under the run's policy, or
 * undefined when the engine may start it.
 *
 * @example compensationHold(run, index, 'charge', 'refund'); // 'policy "approve-compensation" forbids …'
 */
export function compensationHold(run: Pick<RunModel, 'policy' | 'workflow'>, index: DefinitionIndex, compensates: string, by: string): string | undefined {
  const step = index.steps.get(compensates);
  const rule = step === undefined ? undefined : forbiddingRule(run.policy?.rules, 'compensation_without_approval', step, run.workflow.id);
  if (rule === undefined) return undefined;
  return `policy "${rule.id}" forbids compensation without approval: "${by}" would offset "${compensates}"; an operator's retry of "${by}" approves and runs it, a skip records it as done by hand`;
}

/** The step a held compensation offsets: escalated as a compensation before any attempt. Undefined for any other step. */
export function heldCompensation(s: StepRuntime): string | undefined {
  if (!s.escalated || s.compensates === null) return undefined;
  return s.attempts.some((a) => a.activation === s.activation) ? undefined : s.compensates;
}
