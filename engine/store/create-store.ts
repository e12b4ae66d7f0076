// A new store is made whole before anyone can see it: under a temporary name beside the path
// (mode 0600: run data is the user's alone), with every migration applied and the application_id
// stamped, then linked to the path in one step. Two processes starting on a path where no store
// exists yet (weft run and weft serve, say) each make one; the first link wins, the other's copy
// is thrown away, and both open the same whole store. Nobody ever opens a file another process
// is still making: no 0-byte or header-only store is ever at the path.
import { randomUUID } from 'node:crypto';
import { closeSync, existsSync, linkSync, mkdirSync, openSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { WEFT_APPLICATION_ID, type Migration } from './migrations.ts';
import { StoreError } from './store-error.ts';

/** The store file's mode: the owner's alone (its -wal and -shm files get the same from SQLite). */
export const STORE_FILE_MODE = 0o600;

/** Makes a store at `path` (and its folder) unless one appeared there meanwhile. */
export function createStore(path: string, migrations: readonly Migration[]): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (e) {
    throw new StoreError('io', `cannot create the folder of the store ${path}: ${(e as Error).message}`);
  }
  const temp = join(dirname(path), `.${basename(path)}.${randomUUID()}.creating`);
  try {
    closeSync(openSync(temp, 'wx', STORE_FILE_MODE));
    const db = new Database(temp);
    try {
      db.pragma('journal_mode = WAL');
      db.transaction(() => {
        for (const m of migrations) {
          db.exec(m.sql);
          m.build?.(db);
        }
        db.pragma(`user_version = ${migrations[migrations.length - 1]?.version ?? 0}`);
        db.pragma(`application_id = ${WEFT_APPLICATION_ID}`);
      })();
      // Everything into the file itself before it is linked: the temporary -wal is not.
      db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      db.close();
    }
    place(temp, path);
  } finally {
    rmSync(temp, { force: true });
    rmSync(`${temp}-wal`, { force: true });
    rmSync(`${temp}-shm`, { force: true });
  }
}

/** The new store takes the path, unless a store got there first (then that one stays). */
function place(temp: string, path: string): void {
  try {
    linkSync(temp, path);
    return;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    // A file system without hard links: rename, which replaces, so only while nothing is there.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw e;
  }
  if (!existsSync(path)) renameSync(temp, path);
}
