// A SQLite failure of a store in use, as the one line a user reads: which store, what went wrong
// and what to do. An error that is not SQLite's is not described here (undefined): it is a bug.
import { StoreError } from './store-error.ts';

const DAMAGED = 'the file is damaged; check it with `sqlite3 FILE "PRAGMA integrity_check"` and restore it from a backup';

/** What to do, by SQLite's primary result code (SQLITE_IOERR_WRITE is an SQLITE_IOERR). */
const ADVICE: Readonly<Record<string, string>> = {
  SQLITE_FULL: 'the disk is full; free space and run `weft resume` to continue',
  SQLITE_CORRUPT: DAMAGED,
  SQLITE_NOTADB: DAMAGED,
  SQLITE_IOERR: 'the disk reported an I/O error; check the disk and run `weft resume` to continue',
  SQLITE_READONLY: 'the store cannot be written (a read-only file or folder); make it writable and run `weft resume`',
  SQLITE_CANTOPEN: 'the store file cannot be opened; check that it and its folder exist and are writable',
  SQLITE_BUSY: 'another process holds the store; wait for it and run `weft resume`',
};

/**
 * The failure as a StoreError naming the store, or undefined for an error that is not SQLite's.
 *
 * @example storeFailure('/data/weft.db', sqliteFullError)?.message
 * // 'the store /data/weft.db failed: database or disk is full (SQLITE_FULL); the disk is full; …'
 */
export function storeFailure(path: string, error: unknown): StoreError | undefined {
  if (error instanceof StoreError) return error;
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return undefined;
  const primary = code.split('_').slice(0, 2).join('_');
  const cause = (error instanceof Error ? error.message : code).replace(/\s+/g, ' ').trim();
  const advice = ADVICE[primary] ?? 'run `weft resume` to continue once the cause is fixed';
  return new StoreError('io', `the store ${path} failed: ${cause} (${code}); ${advice.replace('FILE', path)}`);
}
