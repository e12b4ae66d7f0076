// The one reader of what work cost (docs/cost.md): every total (a step's, a run's, a workflow's
// day) and every budget check adds up attempts through here, so a new basis of cost is read the
// same way everywhere. The amount is fixed in the attempt's meta when the attempt is recorded.
import type { AttemptMeta } from '../events/attempt-meta.ts';

/** What one attempt cost (0 when it recorded none: a step that bills nothing). */
export function attemptCost(a: { meta: AttemptMeta | undefined }): number {
  return a.meta?.cost?.amount ?? 0;
}

/** The tokens one attempt used (0 each when it reported none). */
export function attemptTokens(a: { meta: AttemptMeta | undefined }): { inputTokens: number; outputTokens: number } {
  return { inputTokens: a.meta?.usage?.inputTokens ?? 0, outputTokens: a.meta?.usage?.outputTokens ?? 0 };
}

/**
 * Adds amounts of money without the drift of binary fractions: to millionths of the currency's
 * unit, which is finer than any price table's per-token price times a whole number of tokens needs.
 *
 * @example
 * sumCost([0.1, 0.2]) // 0.3, not 0.30000000000000004
 */
export function sumCost(amounts: Iterable<number>): number {
  let micros = 0;
  for (const a of amounts) micros += toMicros(a);
  return micros / 1_000_000;
}

/** An amount in whole millionths of its currency's unit, as sumCost adds them. */
export function toMicros(amount: number): number {
  return Math.round(amount * 1_000_000);
}

/**
 * What a list of attempts cost, in whole millionths (toMicros of each): the budget check adds up
 * a run's steps with it before each attempt, without an array of their amounts.
 *
 * @example
 * attemptsMicros([{ meta: { cost: { amount: 0.1, … } } }, { meta: undefined }]) // 100000
 */
export function attemptsMicros(attempts: readonly { meta: AttemptMeta | undefined }[]): number {
  let micros = 0;
  for (const a of attempts) micros += toMicros(attemptCost(a));
  return micros;
}
