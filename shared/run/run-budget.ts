// A run's budget and what it has spent (docs/budgets.md): the smallest of the definition's
// limits.budget, the start's budget and the policy's budgets.perRun applies; the spend is the sum
// of its attempts' recorded costs (shared/cost/attempt-cost.ts, the one reader of costs). Before an attempt of
// a step that bills starts, the engine asks budgetBeforeAttempt whether the step may start.
import type { Step } from '../definition/workflow-schema.ts';
import type { RunModel, StepRuntime } from './run-model.ts';
import { attemptCost, attemptsMicros, sumCost } from '../cost/attempt-cost.ts';
import { formatCost } from '../cost/run-cost.ts';

/** Where a run's budget comes from. */
export type BudgetSource = 'definition' | 'start' | 'policy';

export interface RunBudget {
  amount: number;
  currency: string;
  source: BudgetSource;
}

/** The currency budgets are given in: the policy's `budgets.currency`, else USD. */
export function budgetCurrency(m: Pick<RunModel, 'policy'>): string {
  return m.policy?.rules.budgets?.currency ?? 'USD';
}

const SOURCE_NAMES: Record<BudgetSource, string> = {
  definition: "the definition's limits.budget",
  start: "the start's budget",
  policy: "the policy's budgets.perRun",
};

/** How a reason names a budget, with its amount: `the start's budget (0.25 USD)`. */
export function budgetName(b: RunBudget): string {
  return `${SOURCE_NAMES[b.source]} (${formatCost(b.amount, b.currency)})`;
}

/**
 * The budget that applies to the run: the smallest of those given (the first of definition,
 * start, policy on a tie), or undefined when none is.
 *
 * @example
 * runBudget({ workflow: { limits: { budget: 1 } }, startBudget: 0.25, policy: undefined }) // { amount: 0.25, currency: 'USD', source: 'start' }
 */
export function runBudget(m: Pick<RunModel, 'workflow' | 'startBudget' | 'policy'>): RunBudget | undefined {
  const given: [BudgetSource, number | undefined][] = [
    ['definition', m.workflow.limits?.budget],
    ['start', m.startBudget],
    ['policy', m.policy?.rules.budgets?.perRun],
  ];
  let best: RunBudget | undefined;
  for (const [source, amount] of given) {
    if (amount !== undefined && (best === undefined || amount < best.amount)) best = { amount, currency: budgetCurrency(m), source };
  }
  return best;
}

/** What the run has spent so far: every attempt's recorded cost, of every step and activation. */
export function runSpend(m: Pick<RunModel, 'steps'>): number {
  let micros = 0;
  for (const s of m.steps.values()) micros += attemptsMicros(s.attempts);
  return micros / 1_000_000;
}

/** What the next attempt of a step is expected to cost, and what the estimate rests on. */
export interface StepEstimate {
  amount: number;
  basis: 'declared' | 'last attempt' | 'unknown';
}

/**
 * The expected cost of the step's next attempt: its declared `cost.perCall`, else the cost its
 * last attempt in this run recorded, else 0 (unknown: a first agent call's tokens are not known
 * before it is made).
 *
 * @example
 * stepEstimate({ id: 'lookup', kind: 'http', cost: { perCall: 0.02 }, ... }, s) // { amount: 0.02, basis: 'declared' }
 */
export function stepEstimate(step: Step, s: Pick<StepRuntime, 'attempts'>): StepEstimate {
  const declared = declaredPerCall(step);
  if (declared !== undefined) return { amount: declared, basis: 'declared' };
  for (let k = s.attempts.length - 1; k >= 0; k--) {
    const a = s.attempts[k];
    if (a?.meta?.cost !== undefined) return { amount: attemptCost(a), basis: 'last attempt' };
  }
  return { amount: 0, basis: 'unknown' };
}

/** The step's declared cost per call (`cost.perCall`, docs/cost.md), read without trusting its shape. */
function declaredPerCall(step: Step): number | undefined {
  const cost: unknown = 'cost' in step ? step.cost : undefined;
  if (typeof cost !== 'object' || cost === null || !('perCall' in cost)) return undefined;
  return typeof cost.perCall === 'number' && Number.isFinite(cost.perCall) ? cost.perCall : undefined;
}

/**
 * Why the step's next attempt must not start, or undefined when it may: the run has spent its
 * budget already, or its spend and the step's estimate would exceed it. `spent` is runSpend(m),
 * given by an engine that keeps it (engine/runtime/run-spend.ts).
 *
 * @example
 * budgetBeforeAttempt(run, step, s) // 'the run has spent 0.48 USD of the start\'s budget (0.5 USD); the step\'s estimate (its last attempt) of 0.04 USD would exceed it'
 */
export function budgetBeforeAttempt(m: Pick<RunModel, 'workflow' | 'startBudget' | 'policy' | 'steps'>, step: Step, s: Pick<StepRuntime, 'attempts'>, spent?: number): string | undefined {
  const budget = runBudget(m);
  if (budget === undefined) return undefined;
  spent ??= runSpend(m);
  const estimate = spent >= budget.amount ? undefined : stepEstimate(step, s);
  // Checked before each attempt of a billed step: the words are made only for a step that must not start.
  if (estimate !== undefined && sumCost([spent, estimate.amount]) <= budget.amount) return undefined;
  const money = (n: number): string => formatCost(n, budget.currency);
  if (estimate === undefined) return `the run has spent ${money(spent)}, all of ${budgetName(budget)}`;
  const basis = estimate.basis === 'declared' ? 'its declared cost.perCall' : 'its last attempt';
  return `the run has spent ${money(spent)} of ${budgetName(budget)}; the step's estimate (${basis}) of ${money(estimate.amount)} would exceed it`;
}
