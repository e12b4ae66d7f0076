// Opens a PostgreSQL store (issue 25): the synchronous connection the store's modules run on
// (PgSync on its thread, PgDb over it, the store's SQL translated by storeSql), and the schema
// made or checked on it under its advisory lock (migratePgSync). Normal commits
// run with synchronous_commit off, as SQLite's run with synchronous=NORMAL: a worker that dies
// loses nothing it committed, a PostgreSQL server that crashes may lose its last fraction of a
// second; the commit that records an external attempt's start asks for on (UnitOfWork's durable
// flush, through PgDb.pragma).
import { describePgUrl, quoteIdent } from './pg-connection.ts';
import { PgDb } from './pg-db.ts';
import { migratePgSync } from './pg-schema.ts';
import { PgSync } from './pg-sync.ts';
import { storeSql } from './store-sql.ts';

export interface PgStoreOptions {
  /** The schema the store's tables are in (search_path); the user's default unless given. */
  schema?: string;
  /** Make the store in an empty schema (true unless given); false refuses one (a command that needs runs there). */
  create?: boolean;
}

/**
 * The store's connection on the PostgreSQL database at `url`, its schema made if empty: the
 * connection is synchronous, as SQLite's, so opening is too.
 * @example const db = openPgDb('postgres://weft@%2Ftmp%2Fpg/weft'); const store = new Store(db);
 */
export function openPgDb(url: string, o: PgStoreOptions = {}): PgDb {
  const sync = PgSync.open(url, o.schema === undefined ? {} : { schema: o.schema });
  try {
    // A store made in a named schema makes the schema too (the database's default one exists already).
    if ((o.create ?? true) && o.schema !== undefined) sync.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(o.schema)}`);
    migratePgSync(sync, describePgUrl(url), o.create ?? true);
  } catch (e) {
    sync.close();
    throw e;
  }
  const db = new PgDb(sync, storeSql);
  db.pragma('synchronous = NORMAL');
  return db;
}
