// The SQLite connection every store module takes. Its own file, so the store and the modules
// open-database.ts runs while opening (check-log.ts) name it without importing one another in a
// circle.
import type Database from 'better-sqlite3';

export type Db = Database.Database;
