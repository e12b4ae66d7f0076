// One snapshot for a transaction that reads several statements (a store copy, the log's damage
// check): SQLite's read transaction is one already; PostgreSQL's READ COMMITTED gives each
// statement its own, so there the transaction asks for REPEATABLE READ. PostgreSQL-only SQL, so
// it lives here with the store's other PostgreSQL statements.
import type { Db } from '../db.ts';

/** Whether `db` is a PostgreSQL store's connection (PgDb), not SQLite's. */
export function isPgDb(db: Db): boolean {
  return (db as { dialect?: string }).dialect === 'postgres';
}

/**
 * Called first in a transaction: on PostgreSQL, makes it one read-only snapshot; on SQLite, nothing.
 * @example db.transaction(() => { readSnapshot(db); return findLogDamage(db, version); })();
 */
export function readSnapshot(db: Db): void {
  if (isPgDb(db)) db.exec('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
}
