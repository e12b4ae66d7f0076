// Many rows in one statement: `head VALUES (row), (row), … tail`, so a commit that adds a run's
// counters (a row per step, per edge, per step and day of cost) makes one call into SQLite per
// table instead of one per row. Each statement is prepared once per row count and kept.
import type { Statement } from './db.ts';
import type { Db } from './db.ts';

/** Rows per statement (SQLite allows 32,766 parameters; 11 columns × 64 is far below). */
export const ROWS_PER_STATEMENT = 64;

/**
 * One multi-row statement of a table, prepared on first use for each row count.
 *
 * @example new MultiRow(db, 'INSERT INTO t VALUES', 2, 'ON CONFLICT DO NOTHING').run([[1, 'a'], [2, 'b']])
 */
export class MultiRow {
  /** By row count (index 0 unused). */
  private readonly prepared: (Statement | undefined)[] = [];

  constructor(
    private readonly db: Db,
    private readonly head: string,
    private readonly width: number,
    private readonly tail: string,
  ) {}

  /** Runs the statement for every row of `rows` (each `width` values), at most ROWS_PER_STATEMENT rows per call into SQLite. */
  run(rows: readonly unknown[][]): void {
    for (let k = 0; k < rows.length; k += ROWS_PER_STATEMENT) {
      const chunk = k === 0 && rows.length <= ROWS_PER_STATEMENT ? rows : rows.slice(k, k + ROWS_PER_STATEMENT);
      this.statement(chunk.length).run(chunk.flat());
    }
  }

  private statement(count: number): Statement {
    let st = this.prepared[count];
    if (st === undefined) {
      const one = `(${Array.from({ length: this.width }, () => '?').join(', ')})`;
      this.prepared[count] = st = this.db.prepare(`${this.head} ${Array.from({ length: count }, () => one).join(', ')} ${this.tail}`);
    }
    return st;
  }
}
