// A run's cost, per step and in all (docs/cost.md "Where totals show"): one pure function over the
// run's attempts, used by `weft inspect`, the RunDetail read model (the run page) and the scenario
// checker, so every place shows the same sums. Amounts are added through attempt-cost.ts.
import { z } from 'zod';
import type { AttemptMeta } from '../events/attempt-meta.ts';
import { attemptCost, attemptTokens, sumCost } from './attempt-cost.ts';

export const StepCost = z.object({
  /** What the step's attempts cost, in the run's currency. */
  total: z.number(),
  /** How many of its attempts recorded a cost or token usage. */
  attempts: z.number().int(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  /** Attempts that used tokens but had no price in the table (their cost is not in `total`). */
  unpriced: z.number().int(),
});
export type StepCost = z.infer<typeof StepCost>;

export const RunCost = z.object({
  total: z.number(),
  currency: z.string(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  /** Attempts of the run that used tokens but had no price (say so where the total is shown). */
  unpriced: z.number().int(),
  /** Only the steps with an attempt that cost something or used tokens. */
  steps: z.record(z.string(), StepCost),
});
export type RunCost = z.infer<typeof RunCost>;

/** What runCost reads of a step: its id and its attempts' meta (RunModel steps and RunDetail steps both fit). */
export interface CostedSteps {
  id: string;
  attempts: readonly { meta: AttemptMeta | null | undefined }[];
}

/**
 * Adds up a run's attempts per step and in all. The currency is the one the attempts recorded
 * (the price table's; USD when none did).
 *
 * @example
 * runCost([{ id: 'draft', attempts: [{ meta: { usage: { inputTokens: 10, outputTokens: 5 }, cost: { amount: 0.01, currency: 'USD', basis: 'tokens' } } }] }]);
 * // { total: 0.01, currency: 'USD', inputTokens: 10, outputTokens: 5, unpriced: 0, steps: { draft: { total: 0.01, attempts: 1, ... } } }
 */
export function runCost(steps: Iterable<CostedSteps>): RunCost {
  const out: RunCost = { total: 0, currency: 'USD', inputTokens: 0, outputTokens: 0, unpriced: 0, steps: {} };
  let currency: string | undefined;
  const totals: number[] = [];
  for (const s of steps) {
    const amounts: number[] = [];
    const step: StepCost = { total: 0, attempts: 0, inputTokens: 0, outputTokens: 0, unpriced: 0 };
    for (const a of s.attempts) {
      const meta = a.meta ?? undefined;
      if (meta?.cost === undefined && meta?.usage === undefined) continue;
      const tokens = attemptTokens({ meta });
      step.attempts++;
      step.inputTokens += tokens.inputTokens;
      step.outputTokens += tokens.outputTokens;
      if (meta.cost === undefined) step.unpriced++;
      else {
        currency ??= meta.cost.currency;
        amounts.push(attemptCost({ meta }));
      }
    }
    if (step.attempts === 0) continue;
    step.total = sumCost(amounts);
    totals.push(step.total);
    out.steps[s.id] = step;
    out.inputTokens += step.inputTokens;
    out.outputTokens += step.outputTokens;
    out.unpriced += step.unpriced;
  }
  out.total = sumCost(totals);
  out.currency = currency ?? 'USD';
  return out;
}

/**
 * An amount as people read it: the currency and enough digits for sub-cent token costs.
 *
 * @example
 * formatCost(0.00045, 'USD'); // '$0.00045'
 * formatCost(0.0123, 'USD');  // '$0.012'
 * formatCost(1.5, 'EUR');     // 'EUR 1.50'
 */
export function formatCost(amount: number, currency: string): string {
  // Two significant digits below a unit (a token call costs fractions of a cent), cents above.
  const digits = amount === 0 || amount >= 1 ? 2 : Math.min(6, Math.max(2, 1 - Math.floor(Math.log10(amount))));
  const text = amount.toFixed(digits).replace(/(\.\d\d\d*?)0+$/, '$1');
  return currency === 'USD' ? `$${text}` : `${currency} ${text}`;
}

/**
 * How many attempts had no price, as every total says it.
 *
 * @example
 * unpricedText(1); // '1 attempt had no price'
 */
export function unpricedText(n: number): string {
  return `${n.toLocaleString('en-US')} attempt${n === 1 ? '' : 's'} had no price`;
}

/**
 * A step's amount as shown: "not priced" when none of its attempts had a price ($0.00 would read
 * as free), else its total.
 *
 * @example
 * stepAmountText({ total: 0, attempts: 1, inputTokens: 50, outputTokens: 5, unpriced: 1 }, 'USD'); // 'not priced'
 */
export function stepAmountText(c: StepCost, currency: string): string {
  return c.unpriced === c.attempts ? 'not priced' : formatCost(c.total, currency);
}
