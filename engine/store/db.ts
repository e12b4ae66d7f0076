// The connection every store module takes: the part of a SQL connection the store uses
// (pg/sql-db.ts), which better-sqlite3's Database and PgDb (PostgreSQL, pg/pg-db.ts) both are.
// Its own file, so the store and the modules open-database.ts runs while opening (check-log.ts)
// name it without importing one another in a circle.
import type Database from 'better-sqlite3';
import type { SqlDb, SqlStatement } from './pg/sql-db.ts';

export type Db = SqlDb;
export type Statement = SqlStatement;
/** A store's SQLite connection, where SQLite's own features are used (opening, recognising, tests). */
export type SqliteDb = Database.Database;
