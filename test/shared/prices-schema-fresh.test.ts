// docs/weft-prices.schema.json is generated from the zod PriceTable schema; this keeps the
// checked-in copy from drifting, and checks that it accepts and refuses what the zod schema does.
import { existsSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { PRICES_SCHEMA_PATH, renderPricesSchema } from '../../engine/cost/write-prices-schema.ts';
import { PriceTable } from '../../shared/cost/price-table.ts';

const file = new URL(`../../${PRICES_SCHEMA_PATH}`, import.meta.url);
const validate = new Ajv2020({ strict: false, validateFormats: false, allErrors: true }).compile(JSON.parse(renderPricesSchema()) as object);
const entry = { provider: 'openai', model: 'gpt-4o-mini', from: '2026-01-01', inputPerMillion: 0.15, outputPerMillion: 0.6 };

describe('docs/weft-prices.schema.json', () => {
  it('matches the zod schema (run `npm run schema` when this fails)', () => {
    const stale = `${PRICES_SCHEMA_PATH} is missing or out of date with shared/cost/price-table.ts: run \`npm run schema\` and commit the result`;
    expect(existsSync(file), stale).toBe(true);
    expect(readFileSync(file, 'utf8') === renderPricesSchema(), stale).toBe(true);
  });

  it.each([
    ['a table', { format: 'weft-prices/v1', currency: 'EUR', prices: [entry] }, true],
    ['an empty table', { format: 'weft-prices/v1', prices: [] }, true],
    ['another format', { format: 'weft-prices/v2', prices: [] }, false],
    ['no prices', { format: 'weft-prices/v1' }, false],
    ['a negative price', { format: 'weft-prices/v1', prices: [{ ...entry, inputPerMillion: -1 }] }, false],
    ['an unknown field', { format: 'weft-prices/v1', prices: [{ ...entry, perToken: 1 }] }, false],
    ['a lower-case currency', { format: 'weft-prices/v1', currency: 'usd', prices: [] }, false],
  ])('%s: both schemas agree', (_name, value, ok) => {
    expect(PriceTable.safeParse(value).success).toBe(ok);
    expect(validate(value)).toBe(ok);
  });
});
