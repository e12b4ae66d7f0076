// The one translation of SQLite's errors about a store into the line a user reads: which store,
// what went wrong and what to do. Used when a store is opened (open-database.ts), when a read
// command reads it, and when a failure stops an engine mid-run (engine/host/engine-host.ts). An error that
// is not SQLite's is not described here (undefined): it is a bug.
import { StoreError } from './store-error.ts';

/**
 * When the store failed: `open` (nothing has run yet: try again), `read` (opened read-only: a
 * store that "cannot be written" is one whose folder SQLite cannot add its WAL files to), `run`
 * (an engine was working: `weft resume` continues once the cause is fixed), `start` (an engine
 * was starting a run and nothing of it was committed: `weft resume` would find nothing, so the
 * command is run again).
 */
export type StorePhase = 'open' | 'read' | 'run' | 'start';

interface Failure {
  code: StoreError['code'];
  message: string;
}

/**
 * The failure as a StoreError naming the store, or undefined for an error that is not SQLite's.
 *
 * @example storeFailure('/data/weft.db', sqliteFullError, 'run')?.message
 * // 'cannot write the store /data/weft.db: the disk is full (SQLite: database or disk is full,
 * //  SQLITE_FULL); free some space, then run `weft resume` to continue'
 */
export function storeFailure(path: string, error: unknown, phase: StorePhase): StoreError | undefined {
  if (error instanceof StoreError) return error;
  const code = sqliteCode(error);
  if (code === undefined) return undefined;
  const failure = describe(path, code, `SQLite: ${oneLine(error instanceof Error ? error.message : code)}, ${code}`, phase);
  return new StoreError(failure.code, failure.message);
}

function describe(path: string, code: string, sqlite: string, phase: StorePhase): Failure {
  // SQLITE_IOERR_WRITE is an SQLITE_IOERR, SQLITE_READONLY_DBMOVED an SQLITE_READONLY.
  const primary = code.split('_').slice(0, 2).join('_');
  const then = phase === 'run' ? ', then run `weft resume` to continue' : phase === 'start' ? ', then run the command again (nothing of it was stored)' : ' and try again';
  // Before anything ran, a file SQLite does not know is someone else's; mid-run it is damage.
  const running = phase === 'run' || phase === 'start';
  if (primary === 'SQLITE_NOTADB' && !running) {
    return { code: 'not-a-database', message: `${path} is not a Weft store (not an SQLite database); point --db at a store file, or at a new path to create one` };
  }
  if (primary === 'SQLITE_NOTADB' || primary === 'SQLITE_CORRUPT') {
    // Opening or reading writes nothing; mid-run, the commits before the damage was met stand.
    const unchanged = running ? '' : '; nothing was changed';
    return { code: 'damaged', message: `the store ${path} is damaged (${sqlite})${unchanged}; check it with: sqlite3 ${shellQuote(path)} "PRAGMA integrity_check", and restore it from a backup` };
  }
  const cannotWrite = ['SQLITE_READONLY', 'SQLITE_CANTOPEN', 'SQLITE_PERM', 'SQLITE_AUTH'].includes(primary);
  if (cannotWrite && phase === 'read') {
    return {
      code: 'io',
      message: `cannot read the store ${path} (${sqlite}): to read a store, SQLite needs its folder writable, or the files ${path}-wal and ${path}-shm there; make the folder writable, or copy the store elsewhere`,
    };
  }
  if (cannotWrite) return { code: 'io', message: `cannot write the store ${path} (${sqlite}); check that the file and its folder are writable by you${then}` };
  if (primary === 'SQLITE_FULL') return { code: 'io', message: `cannot write the store ${path}: the disk is full (${sqlite}); free some space${then}` };
  if (primary === 'SQLITE_IOERR') return { code: 'io', message: `cannot use the store ${path}: the disk reported an I/O error (${sqlite}); check the disk${then}` };
  if (primary === 'SQLITE_BUSY') return { code: 'io', message: `the store ${path} is busy: another process holds it (${sqlite}); wait for it to finish${then}` };
  return { code: 'io', message: `cannot use the store ${path} (${sqlite}); fix the cause${then}` };
}

function sqliteCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A path as a shell reads it, for a command the user copies. */
function shellQuote(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
