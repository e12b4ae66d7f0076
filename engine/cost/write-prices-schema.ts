// Generates docs/weft-prices.schema.json from the zod `PriceTable` schema, so editors can check a
// workspace's weft.prices.json (docs/cost.md). test/shared/prices-schema-fresh.test.ts fails when
// the checked-in file drifts from the zod schema. `npm run schema` runs it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { PriceTable } from '../../shared/cost/price-table.ts';

/** Where the generated schema lives, relative to the project root. */
export const PRICES_SCHEMA_PATH = 'docs/weft-prices.schema.json';

/**
 * Renders the JSON Schema of the price table as the exact text of docs/weft-prices.schema.json.
 *
 * @example
 * JSON.parse(renderPricesSchema()).required; // ['format', 'prices']
 */
export function renderPricesSchema(): string {
  const { $schema, ...rest } = z.toJSONSchema(PriceTable, { io: 'input' });
  const document = {
    $schema,
    $id: 'urn:weft-studio:schema:weft-prices-v1',
    title: 'Weft price table (format weft-prices/v1)',
    description: "A workspace's weft.prices.json: token prices per provider and model, from a date on. Generated from shared/cost/price-table.ts by `npm run schema`; see docs/cost.md.",
    ...rest,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

const runAsScript = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (runAsScript) {
  const target = join(fileURLToPath(new URL('../../', import.meta.url)), PRICES_SCHEMA_PATH);
  writeFileSync(target, renderPricesSchema());
  console.log(`wrote ${target}`);
}
