// Opens (or creates) a store file: checks that it is SQLite and not from a newer Weft, sets WAL
// with synchronous=NORMAL, and applies pending migrations in one transaction each.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS, SCHEMA_VERSION, type Migration } from './migrations.ts';
import { StoreError } from './store-error.ts';

export type Db = Database.Database;

export interface OpenOptions {
  /** Apply migrations up to this version only (tests build "older" databases with it). */
  upTo?: number;
}

export function openDatabase(path: string, options: OpenOptions = {}): Db {
  if (path !== ':memory:') {
    try {
      mkdirSync(dirname(path), { recursive: true });
    } catch (e) {
      throw new StoreError('io', `cannot create the folder of the store ${path}: ${(e as Error).message}`);
    }
  }
  let db: Db;
  try {
    db = new Database(path);
  } catch (e) {
    throw new StoreError('io', `cannot open the store ${path}: ${(e as Error).message}`);
  }
  try {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      throw new StoreError(
        'newer-schema',
        `the store ${path} has schema version ${version}, newer than this Weft understands (${SCHEMA_VERSION}); use a newer Weft, or another store with --db`,
      );
    }
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    migrate(db, version, MIGRATIONS.filter((m) => m.version <= (options.upTo ?? SCHEMA_VERSION)));
    return db;
  } catch (e) {
    db.close();
    if (e instanceof StoreError) throw e;
    const code = (e as { code?: unknown }).code;
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
      throw new StoreError('not-a-database', `${path} is not a Weft store (not an SQLite database); point --db at a store file, or at a new path to create one`);
    }
    throw new StoreError('io', `cannot use the store ${path}: ${(e as Error).message}`);
  }
}

function migrate(db: Db, from: number, migrations: readonly Migration[]): void {
  for (const m of migrations) {
    if (m.version <= from) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
}
