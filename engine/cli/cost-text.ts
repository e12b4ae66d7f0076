// A run's cost as `weft inspect` prints it (docs/cost.md "Where totals show"): the run's total
// with its tokens, and each step's, from shared/cost/run-cost.ts.
import { formatCost, stepAmountText, unpricedText, type RunCost, type StepCost } from '../../shared/cost/run-cost.ts';

const count = (n: number): string => n.toLocaleString('en-US');

/** Why some usage has no cost, said where a total is shown. */
export function unpricedNote(n: number): string {
  return `${unpricedText(n)}: add ${n === 1 ? 'its model' : 'their models'} to weft.prices.json (docs/cost.md)`;
}

/**
 * The run's cost line, or none for a run that billed nothing and used no tokens.
 *
 * @example
 * runCostLine(cost); // 'Cost: $0.0045 (1,200 input tokens, 510 output tokens)'
 * // with unpriced attempts: '...; 1 attempt had no price: add its model to weft.prices.json (docs/cost.md)'
 */
export function runCostLine(c: RunCost): string | undefined {
  if (Object.keys(c.steps).length === 0) return undefined;
  const tokens = c.inputTokens > 0 || c.outputTokens > 0 ? ` (${count(c.inputTokens)} input tokens, ${count(c.outputTokens)} output tokens)` : '';
  return `Cost: ${formatCost(c.total, c.currency)}${tokens}${c.unpriced > 0 ? `; ${unpricedNote(c.unpriced)}` : ''}`;
}

/** A step's cost, as a part of its line: `cost $0.00045 (1,000 in / 500 out tokens)`. */
export function stepCostText(s: StepCost, currency: string): string {
  const tokens = s.inputTokens > 0 || s.outputTokens > 0 ? ` (${count(s.inputTokens)} in / ${count(s.outputTokens)} out tokens${s.unpriced > 0 && s.unpriced < s.attempts ? `, ${s.unpriced} unpriced` : ''})` : '';
  // A step whose every attempt had no price shows no amount: $0.00 would read as free.
  return `cost ${stepAmountText(s, currency)}${tokens}`;
}
