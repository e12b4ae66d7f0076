// Opens a store file. `create` (weft run) makes a new store or upgrades an older one; `write`
// (commands that act on existing runs) upgrades but never creates; `read` (runs, inspect, events,
// tasks, stats) opens SQLite read-only and neither creates nor migrates nor stamps. In every mode
// the file is recognised as a weft store (recognise-store.ts) before anything is written to it.
// Writable stores use WAL with synchronous=NORMAL; migrations apply in one transaction each.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS, SCHEMA_VERSION, WEFT_APPLICATION_ID, type Migration } from './migrations.ts';
import { recogniseStore } from './recognise-store.ts';
import { StoreError } from './store-error.ts';
import { storeFailure } from './store-failure.ts';

export type Db = Database.Database;

export type OpenMode = 'create' | 'write' | 'read';

export interface OpenOptions {
  /** Apply migrations up to this version only (tests build "older" databases with it). */
  upTo?: number;
  /** `create` unless given. */
  mode?: OpenMode;
}

export function openDatabase(path: string, options: OpenOptions = {}): Db {
  const mode = options.mode ?? 'create';
  if (path !== ':memory:') checkPath(path, mode);
  let db: Db;
  try {
    db = new Database(path, { readonly: mode === 'read', fileMustExist: mode !== 'create' });
  } catch (e) {
    throw cannotOpen(path, e, mode);
  }
  try {
    db.pragma('busy_timeout = 5000');
    const found = recogniseStore(db, path);
    if (mode !== 'create' && found.kind === 'empty') {
      throw new StoreError('not-a-store', `${path} is empty, not a Weft store; nothing was changed; point --db at a Weft store (weft run creates one)`);
    }
    const version = found.kind === 'store' ? found.version : 0;
    if (mode === 'read') {
      if (version < SCHEMA_VERSION) {
        throw new StoreError(
          'older-schema',
          `the store ${path} has schema version ${version}, older than this Weft's (${SCHEMA_VERSION}); reading does not upgrade it: upgrade it once with a command that writes, such as weft resume --db ${path}`,
        );
      }
      return db;
    }
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    migrate(db, version, MIGRATIONS.filter((m) => m.version <= (options.upTo ?? SCHEMA_VERSION)));
    // A store made before weft stamped its stores is stamped on its first write-open.
    if (found.kind === 'empty' || !found.stamped) db.pragma(`application_id = ${WEFT_APPLICATION_ID}`);
    return db;
  } catch (e) {
    db.close();
    throw cannotOpen(path, e, mode);
  }
}

/** Every failure to open a store is about its file: SQLite's described, any other named. */
function cannotOpen(path: string, error: unknown, mode: OpenMode): StoreError {
  return storeFailure(path, error, mode === 'read' ? 'read' : 'open') ?? new StoreError('io', `cannot use the store ${path}: ${error instanceof Error ? error.message : String(error)}`);
}

/** Only `create` makes the store (and its folder); the others need a regular file there. */
function checkPath(path: string, mode: OpenMode): void {
  if (!existsSync(path)) {
    if (mode !== 'create') {
      throw new StoreError('no-store', `there is no store at ${path}; nothing was created; run a workflow first (weft run FILE), or point --db or WEFT_DB at the store`);
    }
    try {
      mkdirSync(dirname(path), { recursive: true });
    } catch (e) {
      throw new StoreError('io', `cannot create the folder of the store ${path}: ${(e as Error).message}`);
    }
    return;
  }
  if (!statSync(path).isFile()) throw new StoreError('not-a-store', `${path} is not a file, so not a Weft store; point --db at a store file`);
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
