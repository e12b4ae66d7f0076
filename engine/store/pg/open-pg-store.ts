// Opens a PostgreSQL store (issue 25): the schema made or checked under its advisory lock
// (migratePg, on a short-lived pool), then the synchronous connection the store's modules run on
// (PgSync on its thread, PgDb over it, the store's SQL translated by storeSql). Normal commits
// run with synchronous_commit off, as SQLite's run with synchronous=NORMAL: a worker that dies
// loses nothing it committed, a PostgreSQL server that crashes may lose its last fraction of a
// second; the commit that records an external attempt's start asks for on (UnitOfWork's durable
// flush, through PgDb.pragma).
import { connectPg } from './pg-connection.ts';
import { PgDb } from './pg-db.ts';
import { migratePg } from './pg-schema.ts';
import { PgSync } from './pg-sync.ts';
import { storeSql } from './store-sql.ts';

export interface PgStoreOptions {
  /** The schema the store's tables are in (search_path); the user's default unless given. */
  schema?: string;
}

/**
 * The store's connection on the PostgreSQL database at `url`, its schema made if empty.
 * @example const db = await openPgDb('postgres://weft@%2Ftmp%2Fpg/weft'); const store = new Store(db);
 */
export async function openPgDb(url: string, o: PgStoreOptions = {}): Promise<PgDb> {
  const pool = await connectPg(url, { ...(o.schema === undefined ? {} : { schema: o.schema }), max: 1 });
  try {
    await migratePg(pool);
  } finally {
    await pool.end();
  }
  const db = new PgDb(PgSync.open(url, o.schema === undefined ? {} : { schema: o.schema }), storeSql);
  db.pragma('synchronous = NORMAL');
  return db;
}
