// How an attempt's cost is fixed when its end is recorded (docs/cost.md "How an attempt's cost is
// fixed"): pure, so the engine, a replay and the tests decide it the same way.
import type { AttemptMeta } from '../events/attempt-meta.ts';
import type { Step } from '../definition/workflow-schema.ts';
import { currencyOf, priceAt, tokenCost, type PriceTable } from './price-table.ts';

/** Attempts that never reached their work bill nothing declared: their input could not be resolved, or no executor takes the kind. */
const NOT_RUN = new Set(['input_error', 'unsupported_kind']);

/**
 * The cost to record on an attempt that has just ended, or undefined for none. An executor's own
 * cost (a scenario's script) is kept; an agent's usage priced by the table gives basis `tokens`;
 * otherwise the step's declared `cost.perCall` gives basis `declared`, for any attempt that ran.
 *
 * @example
 * fixCost({ usage: { inputTokens: 1000, outputTokens: 0 }, provider: 'openai', model: 'gpt-4o-mini' },
 *   { kind: 'agent' }, table, { atMs, errorCode: undefined, pinned: false });
 * // { amount: 0.00015, currency: 'USD', basis: 'tokens' }
 */
export function fixCost(
  meta: AttemptMeta | undefined,
  step: Step,
  table: PriceTable | undefined,
  at: { atMs: number; errorCode: string | undefined; pinned: boolean },
): AttemptMeta['cost'] {
  if (meta?.cost !== undefined) return meta.cost;
  if (at.pinned) return undefined;
  // An agent with candidates has no provider of its own: the attempt's meta names the one it ran on.
  const provider = step.kind === 'agent' ? (meta?.provider ?? step.config.provider) : undefined;
  if (step.kind === 'agent' && provider !== undefined && meta?.usage !== undefined && table !== undefined) {
    const price = priceAt(table, provider, [meta.model, step.config.model], at.atMs);
    if (price !== undefined) return { amount: tokenCost(meta.usage, price), currency: currencyOf(table), basis: 'tokens' };
  }
  if (step.cost !== undefined && (at.errorCode === undefined || !NOT_RUN.has(at.errorCode))) {
    return { amount: step.cost.perCall, currency: currencyOf(table), basis: 'declared' };
  }
  return undefined;
}

