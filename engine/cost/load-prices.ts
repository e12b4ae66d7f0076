// Reads the workspace's price table, `weft.prices.json` (docs/cost.md). A file that is not a price
// table is a PriceTableError naming the file, the JSON path and how to fix it; the engine asks
// through `workspacePrices`, which re-reads the file only when it changes and never throws into a
// run (an attempt of a workspace whose table is broken records no cost; `weft run` says why).
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PRICES_FILE, PRICES_FORMAT, PriceTable } from '../../shared/cost/price-table.ts';
import { formatPath } from '../../shared/validator/diagnostic.ts';

/** A price table file that cannot be used: `file`, the JSON `path` of the problem, and the advice in `message`. */
export class PriceTableError extends Error {
  override readonly name = 'PriceTableError';

  constructor(readonly file: string, readonly path: string, message: string) {
    super(message);
  }
}

const FIX = `see docs/cost.md "The price table" (schema: docs/weft-prices.schema.json)`;

/**
 * Parses the text of a price table; `file` names it in errors. Throws PriceTableError.
 *
 * @example
 * parsePriceText('{"format":"weft-prices/v1","prices":[]}', 'weft.prices.json').prices; // []
 */
export function parsePriceText(text: string, file: string): PriceTable {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new PriceTableError(file, '$', `${file}: not JSON (${(e as Error).message}); fix the file's syntax, ${FIX}`);
  }
  return checkPriceTable(json, file);
}

/** Checks a parsed price table; `file` names it in the error. Throws PriceTableError. */
export function checkPriceTable(json: unknown, file: string): PriceTable {
  const r = PriceTable.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    const path = formatPath(issue?.path ?? []);
    const what = issue?.code === 'unrecognized_keys' ? `unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((k) => `"${k}"`).join(', ')}` : issue?.message ?? 'invalid';
    throw new PriceTableError(file, path, `${file} at ${path}: ${what}; a price table is {"format": "${PRICES_FORMAT}", "currency": "USD", "prices": [{"provider", "model", "from", "inputPerMillion", "outputPerMillion"}]}, ${FIX}`);
  }
  return r.data;
}

/**
 * The price table of a workspace: undefined when it has no weft.prices.json. Throws PriceTableError
 * for a file that cannot be read or is not a price table.
 */
export function readPriceTable(workspaceDir: string): PriceTable | undefined {
  const file = join(workspaceDir, PRICES_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new PriceTableError(file, '$', `${file}: cannot be read (${(e as Error).message}); check the file's permissions`);
  }
  return parsePriceText(text, file);
}

/** How a workspace's price table was found: a table, none, or a file that cannot be used. */
export type PriceLookup = { table: PriceTable | undefined; error?: PriceTableError };

/**
 * The engine's `prices` option: each workspace's table, re-read only when the file's size or time
 * changes, so an edited table applies to the next attempt that ends. A broken file gives no table
 * (no cost is recorded); `lookup` says why.
 *
 * @example
 * const prices = workspacePrices();
 * new Engine({ ...options, prices: prices.of });
 */
export function workspacePrices(): { of: (workspaceDir: string) => PriceTable | undefined; lookup: (workspaceDir: string) => PriceLookup } {
  const cache = new Map<string, { stamp: string; found: PriceLookup }>();
  const lookup = (dir: string): PriceLookup => {
    const file = join(dir, PRICES_FILE);
    let stamp = 'none';
    try {
      const st = statSync(file);
      stamp = `${st.size}:${st.mtimeMs}`;
    } catch {
      // no file (or no directory): no table
    }
    const hit = cache.get(dir);
    if (hit !== undefined && hit.stamp === stamp) return hit.found;
    let found: PriceLookup;
    try {
      found = { table: stamp === 'none' ? undefined : readPriceTable(dir) };
    } catch (e) {
      if (!(e instanceof PriceTableError)) throw e;
      found = { table: undefined, error: e };
    }
    cache.set(dir, { stamp, found });
    return found;
  };
  return { of: (dir) => lookup(dir).table, lookup };
}
