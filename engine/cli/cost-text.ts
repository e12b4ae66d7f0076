// A run's cost as `weft inspect` prints it (docs/cost.md "Where totals show"): the run's total
// with its tokens, and each step's, from shared/cost/run-cost.ts.
import { formatCost, type RunCost, type StepCost } from '../../shared/cost/run-cost.ts';

const count = (n: number): string => n.toLocaleString('en-US');

/** Why some usage has no cost, said where a total is shown. */
export function unpricedNote(n: number): string {
  return `${n} attempt${n === 1 ? '' : 's'} had no price (add the model to weft.prices.json, docs/cost.md)`;
}

/**
 * The run's cost line, or none for a run that billed nothing and used no tokens.
 *
 * @example
 * runCostLine(cost); // 'Cost: $0.0045 (1,200 input tokens, 510 output tokens)'
 */
export function runCostLine(c: RunCost): string | undefined {
  if (Object.keys(c.steps).length === 0) return undefined;
  const parts = [];
  if (c.inputTokens > 0 || c.outputTokens > 0) parts.push(`${count(c.inputTokens)} input tokens, ${count(c.outputTokens)} output tokens`);
  if (c.unpriced > 0) parts.push(unpricedNote(c.unpriced));
  return `Cost: ${formatCost(c.total, c.currency)}${parts.length === 0 ? '' : ` (${parts.join('; ')})`}`;
}

/** A step's cost, as a part of its line: `cost $0.00045 (1,000 in / 500 out tokens)`. */
export function stepCostText(s: StepCost, currency: string): string {
  const tokens = s.inputTokens > 0 || s.outputTokens > 0 ? ` (${count(s.inputTokens)} in / ${count(s.outputTokens)} out tokens${s.unpriced > 0 ? `, ${s.unpriced} unpriced` : ''})` : '';
  return `cost ${formatCost(s.total, currency)}${tokens}`;
}
