// Many rows in one statement: `head VALUES (row), (row), … tail`, so a commit that adds a run's
// counters (a row per step, per edge, per step and day of cost) makes one call into SQLite per
// table instead of one per row. Statements are prepared once per row count by the caller's cache.
import type { Statement } from 'better-sqlite3';

/** Rows per statement (SQLite allows 32,766 parameters; 11 columns × 64 is far below). */
export const ROWS_PER_STATEMENT = 64;

/**
 * Runs `head` VALUES (…), (…) `tail` for every row of `rows` (each `width` values), in statements
 * of at most ROWS_PER_STATEMENT rows. `prepare` is the caller's statement cache.
 *
 * @example runRows((sql) => cache(sql), 'INSERT INTO t VALUES', 2, 'ON CONFLICT DO NOTHING', [[1, 'a'], [2, 'b']])
 */
export function runRows(prepare: (sql: string) => Statement, head: string, width: number, tail: string, rows: readonly unknown[][]): void {
  const one = `(${Array.from({ length: width }, () => '?').join(', ')})`;
  for (let k = 0; k < rows.length; k += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(k, k + ROWS_PER_STATEMENT);
    prepare(`${head} ${Array.from({ length: chunk.length }, () => one).join(', ')} ${tail}`).run(chunk.flat());
  }
}
