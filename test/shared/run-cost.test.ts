// The price table's lookups, how an attempt's cost is fixed, and a run's totals (docs/cost.md):
// the pure functions every cost the product shows comes from.
import { describe, expect, it } from 'vitest';
import { fixCost } from '../../shared/cost/fix-cost.ts';
import { PriceTable, priceAt, tokenCost } from '../../shared/cost/price-table.ts';
import { formatCost, runCost } from '../../shared/cost/run-cost.ts';
import type { Step } from '../../shared/definition/workflow-schema.ts';

const table = PriceTable.parse({
  format: 'weft-prices/v1',
  prices: [
    { provider: 'openai', model: 'gpt-4o-mini', from: '2026-01-01', inputPerMillion: 0.15, outputPerMillion: 0.6 },
    { provider: 'openai', model: 'gpt-4o-mini', from: '2026-06-01', inputPerMillion: 0.1, outputPerMillion: 0.4 },
    { provider: 'anthropic', model: 'claude-x', from: '2026-01-01', inputPerMillion: 3, outputPerMillion: 15 },
  ],
});
const day = (d: string): number => Date.parse(`${d}T12:00:00Z`);
const agent: Step = { id: 'draft', kind: 'agent', config: { provider: 'openai', model: 'gpt-4o-mini', prompt: 'p' } };
const http: Step = { id: 'pay', kind: 'http', cost: { perCall: 0.01 }, config: { method: 'GET', url: 'https://x.example' } };
const at = (d: string, errorCode?: string, pinned = false) => ({ atMs: day(d), errorCode, pinned });
const usage = { inputTokens: 1000, outputTokens: 500 };

describe('priceAt', () => {
  it('takes the latest entry from on or before the attempt, and nothing before the first', () => {
    expect(priceAt(table, 'openai', ['gpt-4o-mini'], day('2026-03-01'))?.from).toBe('2026-01-01');
    expect(priceAt(table, 'openai', ['gpt-4o-mini'], Date.parse('2026-06-01T00:00:00Z'))?.from).toBe('2026-06-01');
    expect(priceAt(table, 'openai', ['gpt-4o-mini'], day('2025-12-31'))).toBeUndefined();
  });
  it('tries the reported model, then the configured one', () => {
    expect(priceAt(table, 'openai', ['gpt-4o-mini-2024-07-18', 'gpt-4o-mini'], day('2026-03-01'))?.model).toBe('gpt-4o-mini');
    expect(priceAt(table, 'anthropic', ['gpt-4o-mini'], day('2026-03-01'))).toBeUndefined();
  });
  it('prices tokens per million without float drift', () => {
    expect(tokenCost(usage, { inputPerMillion: 0.15, outputPerMillion: 0.6 })).toBe(0.00045);
    expect(tokenCost({ inputTokens: 3, outputTokens: 0 }, { inputPerMillion: 0.1, outputPerMillion: 0 })).toBe(0); // below a millionth
  });
});

describe('fixCost', () => {
  it('prices an agent by its tokens at the entry in force', () => {
    expect(fixCost({ provider: 'openai', model: 'gpt-4o-mini', usage }, agent, table, at('2026-03-01'))).toEqual({ amount: 0.00045, currency: 'USD', basis: 'tokens' });
    expect(fixCost({ provider: 'openai', model: 'gpt-4o-mini', usage }, agent, table, at('2026-07-01'))?.amount).toBe(0.0003);
  });
  it('keeps an executor\'s own cost', () => {
    const own = { amount: 2, currency: 'USD', basis: 'scripted' as const };
    expect(fixCost({ usage, cost: own }, agent, table, at('2026-03-01'))).toBe(own);
  });
  it('records no cost for usage without a price, unless the step declares one', () => {
    expect(fixCost({ provider: 'openai', model: 'gpt-5', usage }, { ...agent, config: { provider: 'openai', model: 'gpt-5', prompt: 'p' } }, table, at('2026-03-01'))).toBeUndefined();
    expect(fixCost({ usage }, agent, undefined, at('2026-03-01'))).toBeUndefined();
    expect(fixCost({ usage }, { ...agent, cost: { perCall: 0.05 } }, undefined, at('2026-03-01'))).toEqual({ amount: 0.05, currency: 'USD', basis: 'declared' });
  });
  it('bills a declared cost for every attempt that ran, in the table\'s currency', () => {
    const eur = PriceTable.parse({ format: 'weft-prices/v1', currency: 'EUR', prices: [] });
    expect(fixCost(undefined, http, eur, at('2026-03-01', 'connection_failed'))).toEqual({ amount: 0.01, currency: 'EUR', basis: 'declared' });
    expect(fixCost(undefined, http, table, at('2026-03-01', 'input_error'))).toBeUndefined();
    expect(fixCost(undefined, http, table, at('2026-03-01', undefined, true))).toBeUndefined();
    expect(fixCost(undefined, { ...http, cost: undefined }, table, at('2026-03-01'))).toBeUndefined();
  });
});

describe('runCost', () => {
  it('sums per step and in all, and counts attempts that used tokens without a price', () => {
    const c = runCost([
      { id: 'draft', attempts: [
        { meta: { usage, cost: { amount: 0.1, currency: 'USD', basis: 'tokens' } } },
        { meta: { usage: { inputTokens: 10, outputTokens: 1 } } },
      ] },
      { id: 'pay', attempts: [{ meta: { cost: { amount: 0.2, currency: 'USD', basis: 'declared' } } }, { meta: null }] },
      { id: 'shape', attempts: [{ meta: undefined }] },
    ]);
    expect(c).toEqual({
      total: 0.3,
      currency: 'USD',
      inputTokens: 1010,
      outputTokens: 501,
      unpriced: 1,
      steps: {
        draft: { total: 0.1, attempts: 2, inputTokens: 1010, outputTokens: 501, unpriced: 1 },
        pay: { total: 0.2, attempts: 1, inputTokens: 0, outputTokens: 0, unpriced: 0 },
      },
    });
  });
  it('is empty for a run that billed nothing', () => {
    expect(runCost([{ id: 'a', attempts: [{ meta: undefined }] }])).toEqual({ total: 0, currency: 'USD', inputTokens: 0, outputTokens: 0, unpriced: 0, steps: {} });
  });
  it.each([[0.00045, 'USD', '$0.00045'], [0.0123, 'USD', '$0.012'], [1.5, 'EUR', 'EUR 1.50'], [0, 'USD', '$0.00']])('formatCost(%s, %s) is %s', (a, c, text) => {
    expect(formatCost(a, c)).toBe(text);
  });
});
