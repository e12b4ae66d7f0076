// Opens a store file. `create` (weft run, weft serve) makes a new store or upgrades an older one;
// `write` (commands that act on existing runs) upgrades but never creates; `read` (runs, inspect,
// events, tasks, stats) opens SQLite read-only and neither creates nor migrates nor stamps. In
// every mode the file is recognised as a weft store (recognise-store.ts) before anything is
// written to it, and a store whose log does not read as weft's (check-log.ts) is not written to. A new store is made whole under another name and linked into place
// (create-store.ts); an older one is upgraded in one transaction that holds the write lock and
// reads the schema version again under it, so processes starting together never migrate twice.
// Writable stores use WAL with synchronous=NORMAL.
import { existsSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { findLogDamage } from './check-log.ts';
import { createStore } from './create-store.ts';
import { MIGRATIONS, SCHEMA_VERSION, WEFT_APPLICATION_ID, type Migration } from './migrations.ts';
import { recogniseStore, type Recognised } from './recognise-store.ts';
import { StoreError } from './store-error.ts';
import { storeFailure } from './store-failure.ts';
import type { SqliteDb } from './db.ts';

export type OpenMode = 'create' | 'write' | 'read';

export interface OpenOptions {
  /** Apply migrations up to this version only (tests build "older" databases with it). */
  upTo?: number;
  /** `create` unless given. */
  mode?: OpenMode;
}

export function openDatabase(path: string, options: OpenOptions = {}): SqliteDb {
  const mode = options.mode ?? 'create';
  const migrations = MIGRATIONS.filter((m) => m.version <= (options.upTo ?? SCHEMA_VERSION));
  const memory = path === ':memory:';
  if (!memory) {
    if (mode === 'create' && !existsSync(path)) {
      try {
        createStore(path, migrations);
      } catch (e) {
        throw cannotOpen(path, e, mode);
      }
    }
    checkPath(path, mode);
  }
  let db: SqliteDb;
  try {
    db = new Database(path, { readonly: mode === 'read', fileMustExist: !memory });
  } catch (e) {
    throw cannotOpen(path, e, mode);
  }
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // One snapshot: the version, the application_id, the tables and the log are read as of one commit.
    const { found, damage } = db.transaction(() => {
      const recognised = recogniseStore(db, path);
      // Readers are told of damage by the caller (findLogDamage); a writer is refused here.
      return { found: recognised, damage: mode === 'read' || recognised.kind === 'empty' ? undefined : findLogDamage(db, recognised.version) };
    })();
    if (damage !== undefined) {
      throw new StoreError('damaged', `the store ${path} cannot be written: ${damage}; nothing was changed; commands that write refuse a damaged store: restore it from a backup (commands that read still read its other runs)`);
    }
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
    switchToWal(db);
    db.pragma('synchronous = NORMAL');
    if (needsUpgrade(found, migrations)) upgrade(db, path, migrations);
    return db;
  } catch (e) {
    db.close();
    throw cannotOpen(path, e, mode);
  }
}

/** How long an opener waits for another process's lock before saying the store is busy. */
const BUSY_TIMEOUT_MS = 5000;
const BUSY_RETRY_MS = 10;

/**
 * Sets WAL mode, waiting out another process's lock as busy_timeout does elsewhere. SQLite answers
 * SQLITE_BUSY here at once, without its busy handler, when the file changed mode under this
 * connection: one opener of a 0-byte file switched it to WAL between this one's read and its
 * switch (seen in 1 to 3 of 30 rounds of six openers). Asked again, the switch finds the file in
 * WAL mode and passes; a lock that stays held is still reported as busy after BUSY_TIMEOUT_MS.
 */
function switchToWal(db: SqliteDb): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (e) {
      if (!isBusy(e) || Date.now() >= deadline) throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, BUSY_RETRY_MS);
    }
  }
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

function needsUpgrade(found: Recognised, migrations: readonly Migration[]): boolean {
  if (found.kind === 'empty' || !found.stamped) return true;
  return migrations.some((m) => m.version > found.version);
}

/**
 * Applies the pending migrations and stamps the application_id, in one transaction that takes
 * the write lock first (BEGIN IMMEDIATE) and recognises the file again under it: another
 * process may have upgraded it (or made it, from an empty file) since it was first read.
 */
function upgrade(db: SqliteDb, path: string, migrations: readonly Migration[]): void {
  db.transaction(() => {
    const found = recogniseStore(db, path);
    const from = found.kind === 'store' ? found.version : 0;
    let version = from;
    for (const m of migrations) {
      if (m.version <= from) continue;
      db.exec(m.sql);
      m.build?.(db);
      version = m.version;
    }
    if (version !== from) db.pragma(`user_version = ${version}`);
    // A store made before weft stamped its stores is stamped on its first write-open.
    if (found.kind === 'empty' || !found.stamped) db.pragma(`application_id = ${WEFT_APPLICATION_ID}`);
  }).immediate();
}

/** Every failure to open a store is about its file: SQLite's described, any other named. */
function cannotOpen(path: string, error: unknown, mode: OpenMode): StoreError {
  return storeFailure(path, error, mode === 'read' ? 'read' : 'open') ?? new StoreError('io', `cannot use the store ${path}: ${error instanceof Error ? error.message : String(error)}`);
}

/** Only `create` makes the store (and its folder); the others need a regular file there. */
function checkPath(path: string, mode: OpenMode): void {
  if (!existsSync(path)) {
    throw new StoreError('no-store', `there is no store at ${path}; nothing was created; ${mode === 'create' ? 'check that its folder is writable' : 'run a workflow first (weft run FILE), or point --store or --db (WEFT_STORE or WEFT_DB) at the store'}`);
  }
  if (!statSync(path).isFile()) throw new StoreError('not-a-store', `${path} is not a file, so not a Weft store; point --db at a store file`);
}
