// The part of a SQL connection the store uses, named once so that both better-sqlite3's Database
// and PgDb (pg-db.ts, PostgreSQL through PgSync) satisfy it: prepared statements with
// run/get/all/iterate and the pluck/raw switches, transactions (nested ones as savepoints), exec,
// pragma and close. Parameters are given as better-sqlite3 takes them: positional values (arrays
// are spread) for `?`, or one object for `@name`.

/** What run() tells: the rows it changed, and the row id it inserted (see PgDb for PostgreSQL's). */
export interface SqlRunResult {
  readonly changes: number;
  readonly lastInsertRowid: number | bigint;
}

/** A prepared statement. pluck(): rows as their first column; raw(): rows as arrays. */
export interface SqlStatement {
  run(...params: unknown[]): SqlRunResult;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): IterableIterator<unknown>;
  pluck(toggleState?: boolean): this;
  raw(toggleState?: boolean): this;
}

/** Any function (a `never[]` parameter list is what every parameter list is assignable to). */
export type SqlTransactionBody = (...params: never[]) => unknown;

/** A function's parameters, spelt as better-sqlite3's types spell them (so its Transaction fits SqlTransaction). */
export type SqlArgs<F> = F extends (...args: infer A) => unknown ? A : never;

/** `fn` in a transaction: called as is (deferred) or through .deferred/.immediate/.exclusive. */
export interface SqlTransaction<F extends SqlTransactionBody> {
  (...params: SqlArgs<F>): ReturnType<F>;
  deferred(...params: SqlArgs<F>): ReturnType<F>;
  immediate(...params: SqlArgs<F>): ReturnType<F>;
  exclusive(...params: SqlArgs<F>): ReturnType<F>;
}

/**
 * A connection as the store uses it.
 * @example
 * function count(db: SqlDb): number { return db.prepare('SELECT count(*) FROM runs').pluck().get() as number; }
 */
export interface SqlDb {
  prepare(source: string): SqlStatement;
  transaction<F extends SqlTransactionBody>(fn: F): SqlTransaction<F>;
  exec(source: string): this;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  close(): this;
}
