// Reading weft.prices.json: a table, no file, and each kind of bad file with an error that names
// the file, the JSON path and the fix; the engine's lookup re-reads a file that changed and turns
// a broken one into "no table" (never an exception into a run).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PriceTableError, readPriceTable, workspacePrices } from '../../engine/cost/load-prices.ts';

const dirs: string[] = [];
const workspace = (text?: string): string => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-prices-'));
  dirs.push(dir);
  if (text !== undefined) writeFileSync(join(dir, 'weft.prices.json'), text);
  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const entry = { provider: 'openai', model: 'gpt-4o-mini', from: '2026-01-01', inputPerMillion: 0.15, outputPerMillion: 0.6 };
const table = (prices: unknown[]): string => JSON.stringify({ format: 'weft-prices/v1', currency: 'USD', prices });

const errorOf = (dir: string): PriceTableError => {
  try {
    readPriceTable(dir);
  } catch (e) {
    if (e instanceof PriceTableError) return e;
    throw e;
  }
  throw new Error('no error');
};

describe('readPriceTable', () => {
  it('reads a table, and gives none without a file', () => {
    expect(readPriceTable(workspace(table([entry])))?.prices).toEqual([entry]);
    expect(readPriceTable(workspace())).toBeUndefined();
  });

  it.each([
    ['not JSON', '{"format": ', '$', /not JSON/],
    ['another format', JSON.stringify({ format: 'weft-prices/v9', prices: [] }), '$.format', /the format is "weft-prices\/v1"/],
    ['a price that is not a number', table([{ ...entry, inputPerMillion: '0.15' }]), '$.prices[0].inputPerMillion', /expected number/],
    ['a day that is not a date', table([{ ...entry, from: 'January' }]), '$.prices[0].from', /a date such as "2026-01-01"/],
    ['an unknown field', table([{ ...entry, perToken: 1 }]), '$.prices[0]', /unknown field "perToken"/],
    ['an entry priced twice', table([entry, { ...entry, inputPerMillion: 1 }]), '$.prices[1]', /priced twice \(also at \$\.prices\[0\]\)/],
  ])('%s: says what, where and how to fix it', (_name, text, path, what) => {
    const dir = workspace(text);
    const e = errorOf(dir);
    expect(e.file).toBe(join(dir, 'weft.prices.json'));
    expect(e.path).toBe(path);
    expect(e.message).toContain(`${join(dir, 'weft.prices.json')}`);
    expect(e.message).toMatch(what);
    expect(e.message).toContain('docs/cost.md');
  });
});

describe('workspacePrices', () => {
  it('re-reads the file when it changes, and reports a broken one without throwing', () => {
    const dir = workspace(table([entry]));
    const prices = workspacePrices();
    expect(prices.of(dir)?.prices).toHaveLength(1);
    writeFileSync(join(dir, 'weft.prices.json'), table([entry, { ...entry, from: '2026-06-01' }]));
    expect(prices.of(dir)?.prices).toHaveLength(2);
    writeFileSync(join(dir, 'weft.prices.json'), '{ broken');
    expect(prices.of(dir)).toBeUndefined();
    expect(prices.lookup(dir).error?.message).toMatch(/not JSON/);
    rmSync(join(dir, 'weft.prices.json'));
    expect(prices.lookup(dir)).toEqual({ table: undefined });
  });
});
