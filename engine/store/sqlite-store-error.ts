// SQLite's errors about the store file, as StoreErrors a user can act on: a damaged file (with
// SQLite's own integrity check to run), a file that is not a database, a store that cannot be
// written (a read-only file or folder, a full disk). Anything else is left as it is: a bug.
import { StoreError } from './store-error.ts';

/**
 * `open`: every failure is about the file. `use`: only SQLite's errors are; others pass through.
 * `reading`: the store was opened read-only, so "cannot write" means SQLite could not create the
 * files beside it that it needs to read a store in WAL mode.
 */
export function sqliteStoreError(error: unknown, path: string, when: 'open' | 'use', reading = false): unknown {
  if (error instanceof StoreError) return error;
  const code = sqliteCode(error);
  const why = error instanceof Error ? error.message : String(error);
  if (code === 'SQLITE_NOTADB') {
    return new StoreError('not-a-database', `${path} is not a Weft store (not an SQLite database); point --db at a store file, or at a new path to create one`);
  }
  if (code?.startsWith('SQLITE_CORRUPT') === true) {
    return new StoreError('damaged', `the store ${path} is damaged (SQLite: ${why}); nothing was changed; check it with: sqlite3 ${quote(path)} "PRAGMA integrity_check"`);
  }
  const cannotWrite = code?.startsWith('SQLITE_READONLY') === true || code?.startsWith('SQLITE_CANTOPEN') === true || code === 'SQLITE_PERM' || code === 'SQLITE_AUTH';
  if (cannotWrite && reading) {
    return new StoreError('io', `cannot read the store ${path} (SQLite: ${why}): to read a store, SQLite needs its folder writable, or the files ${path}-wal and ${path}-shm there; make the folder writable, or copy the store elsewhere`);
  }
  if (cannotWrite) {
    return new StoreError('io', `cannot write the store ${path} (SQLite: ${why}); check that the file and its folder are writable by you`);
  }
  if (code === 'SQLITE_FULL') return new StoreError('io', `cannot write the store ${path}: the disk is full (SQLite: ${why}); free some space and try again`);
  if (code?.startsWith('SQLITE_IOERR') === true) return new StoreError('io', `cannot use the store ${path}: the disk reported an I/O error (SQLite: ${why})`);
  if (when === 'use' && code === undefined) return error;
  return new StoreError('io', `cannot use the store ${path}: ${why}`);
}

function sqliteCode(error: unknown): string | undefined {
  if (!(error instanceof Error) || error.name !== 'SqliteError') return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** A path as a shell reads it, for a command the user copies. */
function quote(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
