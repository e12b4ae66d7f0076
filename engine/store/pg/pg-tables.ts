// The columns and primary key of each table of a PostgreSQL store, read from the schema itself
// (PG_BASELINE_SQL), so the dialect (pg-dialect.ts) can give an upsert the conflict target that
// SQLite lets a statement leave out, and spell out INSERT OR REPLACE, without a second list of
// tables to keep in step.
import { PG_BASELINE_SQL } from './pg-schema.ts';
import { argsOf, isOp, isWord, significant, textOf, tokenize } from './sql-tokens.ts';

export interface PgTable {
  /** Column names in order. */
  columns: readonly string[];
  /** The primary key's columns in order. */
  primaryKey: readonly string[];
}

let tables: Map<string, PgTable> | undefined;

/**
 * The tables of the baseline schema, by name.
 * @example pgTables().get('step_states')?.primaryKey // ['run_id', 'step_id']
 */
export function pgTables(): ReadonlyMap<string, PgTable> {
  tables ??= parseTables(PG_BASELINE_SQL);
  return tables;
}

/** Every `CREATE TABLE name (…)` of `sql`: its columns and primary key. */
export function parseTables(sql: string): Map<string, PgTable> {
  const tokens = significant(tokenize(sql));
  const found = new Map<string, PgTable>();
  for (let i = 0; i + 3 < tokens.length; i++) {
    if (!isWord(tokens[i], 'CREATE') || !isWord(tokens[i + 1], 'TABLE')) continue;
    const name = tokens[i + 2]?.text ?? '';
    let open = i + 3;
    while (open < tokens.length && !isOp(tokens[open], '(')) open++;
    let depth = 0;
    let close = open;
    for (; close < tokens.length; close++) {
      if (isOp(tokens[close], '(')) depth++;
      else if (isOp(tokens[close], ')') && --depth === 0) break;
    }
    const columns: string[] = [];
    let primaryKey: string[] = [];
    for (const [from, to] of argsOf(tokens, open, close)) {
      const first = tokens[from];
      if (isWord(first, 'PRIMARY') && isWord(tokens[from + 1], 'KEY')) {
        primaryKey = textOf(tokens, from + 3, to - 1).split(',').map((c) => c.trim());
      } else if (first !== undefined && !isWord(first, 'CHECK', 'UNIQUE', 'CONSTRAINT', 'FOREIGN')) {
        columns.push(first.text);
        for (let k = from; k + 1 < to; k++) if (isWord(tokens[k], 'PRIMARY') && isWord(tokens[k + 1], 'KEY')) primaryKey = [first.text];
      }
    }
    found.set(name, { columns, primaryKey });
    i = close;
  }
  return found;
}
