// A prepared statement of PgDb (pg-db.ts), shaped as better-sqlite3's: run/get/all/iterate with
// positional (`?`, arrays spread) or named (`@name`, one object) parameters, and the pluck/raw
// switches. The statement's SQLite text was translated once (PgDb memoises per text); binding
// puts the values in the translation's `$n` order.
import type { SqlRunResult, SqlStatement } from './sql-db.ts';

/** A store statement in PostgreSQL's words: `$1..$n`, and the names in `$n` order for named parameters (null: positional). */
export interface Translation {
  text: string;
  names: readonly string[] | null;
}

/** Turns the store's SQLite SQL into PostgreSQL's (pg-dialect.ts's translateSql). */
export type TranslateSql = (sqliteSql: string) => Translation;

/** What a statement asks of its PgDb: to run it (writes may be queued) and to read its rows (arrays). */
export interface StatementRunner {
  write(source: string, text: string, values: readonly unknown[]): SqlRunResult;
  read(source: string, text: string, values: readonly unknown[]): { rows: unknown[][]; fields: string[] };
}

/** A value better-sqlite3 binds as one parameter rather than spreading or reading names from it. */
function isScalar(value: unknown): boolean {
  return value === null || typeof value !== 'object' || ArrayBuffer.isView(value) || value instanceof Date;
}

/**
 * The values in `$n` order: positional ones as given (arrays spread, as better-sqlite3 does), or
 * named ones picked from the object by the translation's names (`@run`, `:run`, `$run` or `run`).
 * @example bind({ text: '$1 $2', names: ['a', 'b'] }, [{ a: 1, b: 2 }], 'x') // [1, 2]
 */
export function bind(translation: Translation, params: readonly unknown[], source: string): unknown[] {
  const positional: unknown[] = [];
  let named: Record<string, unknown> | undefined;
  for (const p of params) {
    if (Array.isArray(p)) positional.push(...(p as unknown[]));
    else if (isScalar(p)) positional.push(p);
    else named = { ...named, ...(p as Record<string, unknown>) };
  }
  if (translation.names === null) {
    if (named !== undefined) throw new TypeError(`named parameters were given, but the statement has only positional ones (?): ${source}`);
    return positional;
  }
  if (positional.length > 0) throw new TypeError(`positional parameters were given, but the statement has named ones (@name): ${source}`);
  const given = named ?? {};
  return translation.names.map((name) => {
    const key = name.replace(/^[@:$]/, '');
    if (!Object.hasOwn(given, key)) throw new RangeError(`Missing named parameter "${key}" for: ${source}`);
    return given[key];
  });
}

export class PgDbStatement implements SqlStatement {
  private shape: 'object' | 'pluck' | 'raw' = 'object';

  constructor(
    private readonly runner: StatementRunner,
    /** The statement as the store wrote it (SQLite's SQL). */
    readonly source: string,
    private readonly translation: Translation,
  ) {}

  /** Rows as their first column's value (true), or as before (false). */
  pluck(toggleState = true): this {
    if (toggleState) this.shape = 'pluck';
    else if (this.shape === 'pluck') this.shape = 'object';
    return this;
  }

  /** Rows as arrays of their columns (true), or as objects (false). */
  raw(toggleState = true): this {
    if (toggleState) this.shape = 'raw';
    else if (this.shape === 'raw') this.shape = 'object';
    return this;
  }

  /** Inside a transaction the statement is queued and its result is lazy (see PgDb). */
  run(...params: unknown[]): SqlRunResult {
    return this.runner.write(this.source, this.translation.text, bind(this.translation, params, this.source));
  }

  /** The first row, or undefined (the whole result is fetched: give the SQL a LIMIT where it matters). */
  get(...params: unknown[]): unknown {
    const { rows, fields } = this.read(params);
    return rows.length === 0 ? undefined : this.row(rows[0] as unknown[], fields);
  }

  all(...params: unknown[]): unknown[] {
    const { rows, fields } = this.read(params);
    return rows.map((r) => this.row(r, fields));
  }

  /** Fetches every row now, then yields them (a cursor would hold the connection between yields). */
  iterate(...params: unknown[]): IterableIterator<unknown> {
    return this.all(...params)[Symbol.iterator]();
  }

  private read(params: readonly unknown[]): { rows: unknown[][]; fields: string[] } {
    return this.runner.read(this.source, this.translation.text, bind(this.translation, params, this.source));
  }

  private row(values: unknown[], fields: readonly string[]): unknown {
    if (this.shape === 'raw') return values;
    if (this.shape === 'pluck') return values[0];
    const row: Record<string, unknown> = {};
    fields.forEach((name, k) => (row[name] = values[k]));
    return row;
  }
}
