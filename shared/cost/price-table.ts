// The workspace's price table (`weft.prices.json`, docs/cost.md): what a provider's model costs per
// million input and output tokens, from a date on. One zod schema: the engine's loader, the
// scenario file's inline `prices` and the published docs/weft-prices.schema.json all come from it.
import { z } from 'zod';

/** The format tag every price table carries. */
export const PRICES_FORMAT = 'weft-prices/v1';

/** The price table's file name, at the workspace root (beside the workflow, for a scenario). */
export const PRICES_FILE = 'weft.prices.json';

export const PriceEntry = z.strictObject({
  provider: z.string().min(1).describe('the agent provider, as a step\'s config.provider names it (openai, anthropic, mock)'),
  model: z.string().min(1).describe('the model name, as the provider reports it or the step\'s config.model names it'),
  from: z.iso.date('a date such as "2026-01-01"').describe('the day (UTC) this price applies from; the latest entry not after the attempt applies'),
  inputPerMillion: z.number().nonnegative().describe('price of one million input (prompt) tokens'),
  outputPerMillion: z.number().nonnegative().describe('price of one million output (completion) tokens'),
});
export type PriceEntry = z.infer<typeof PriceEntry>;

export const PriceTable = z
  .strictObject({
    $schema: z.string().optional(),
    format: z.literal(PRICES_FORMAT, `the format is "${PRICES_FORMAT}"`),
    currency: z.string().regex(/^[A-Z]{3}$/, 'a currency code of three capital letters, such as "USD"').optional().describe('ISO 4217 code of every price here (USD when absent)'),
    prices: z.array(PriceEntry),
  })
  .superRefine((t, ctx) => {
    // Two prices for one provider, model and day would make the price in force a matter of order.
    const seen = new Map<string, number>();
    for (const [i, e] of t.prices.entries()) {
      const key = `${e.provider}\u0000${e.model}\u0000${e.from}`;
      const first = seen.get(key);
      if (first !== undefined) ctx.addIssue({ code: 'custom', path: ['prices', i], message: `${e.provider} ${e.model} from ${e.from} is priced twice (also at $.prices[${first}]); keep one entry per provider, model and day` });
      else seen.set(key, i);
    }
  });
export type PriceTable = z.infer<typeof PriceTable>;

/** The currency of a table's prices (and of the declared costs of runs priced by it). */
export const currencyOf = (table: PriceTable | undefined): string => table?.currency ?? 'USD';

/**
 * The entry in force for a provider's model at `atMs`: the latest `from` day not after it.
 * `models` are tried in order (the model the provider reported, then the one the step asked for).
 *
 * @example
 * const t = PriceTable.parse({ format: 'weft-prices/v1', prices: [
 *   { provider: 'openai', model: 'gpt-4o-mini', from: '2026-01-01', inputPerMillion: 0.15, outputPerMillion: 0.6 }] });
 * priceAt(t, 'openai', ['gpt-4o-mini'], Date.parse('2026-03-01'))?.inputPerMillion; // 0.15
 */
export function priceAt(table: PriceTable, provider: string, models: readonly (string | undefined)[], atMs: number): PriceEntry | undefined {
  for (const model of models) {
    if (model === undefined) continue;
    let best: PriceEntry | undefined;
    for (const e of table.prices) {
      if (e.provider !== provider || e.model !== model || Date.parse(e.from) > atMs) continue;
      if (best === undefined || e.from > best.from) best = e;
    }
    if (best !== undefined) return best;
  }
  return undefined;
}

/**
 * What some token usage costs at an entry's prices, to millionths of the currency's unit.
 *
 * @example
 * tokenCost({ inputTokens: 1000, outputTokens: 500 }, { inputPerMillion: 0.15, outputPerMillion: 0.6 }); // 0.00045
 */
export function tokenCost(usage: { inputTokens: number; outputTokens: number }, price: Pick<PriceEntry, 'inputPerMillion' | 'outputPerMillion'>): number {
  const micros = usage.inputTokens * price.inputPerMillion + usage.outputTokens * price.outputPerMillion;
  return Math.round(micros) / 1_000_000;
}
