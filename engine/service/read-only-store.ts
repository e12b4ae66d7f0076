// Commands that only read (runs, inspect, events, stats, compare) open the store without a lease,
// read-only, and never create one: the store must be there. The store is given as its text: a
// file's path, or a PostgreSQL URL (store-locator.ts). A SQLite failure while reading becomes
// one line naming the store (exit 2); PostgreSQL's failures name it already, without the password.
// SQLite and PostgreSQL are imported when a store is opened, not when the CLI starts. (Commands
// that schedule runs own the store through engine/host/engine-host.ts.)
import { storeFailure } from '../store/store-failure.ts';
import type { Store } from '../store/store.ts';
import { RunReader } from './run-reader.ts';
import { FileArtifactStore } from '../artifacts/artifact-store.ts';
import { storeArtifactsDir } from '../store/store-home.ts';
import { systemClock } from '../time/clock.ts';

/** Where a reader's store is: its text (a path relative to `cwd`, or a URL), and the workspace whose .weft/ keeps a PostgreSQL store's artifacts. */
export interface ReadOnlyPlace {
  cwd?: string;
  workspace?: string;
}

/**
 * For commands that only read: no lease, a store that must already exist, opened read-only.
 * @example const { store, close } = await openReadOnlyStore('postgres://weft@db/weft?schema=team');
 */
export async function openReadOnlyStore(storeText: string, place: ReadOnlyPlace = {}): Promise<{ store: Store; close(): void }> {
  const [{ Store }, { openStoreDb, storeLocator }] = await Promise.all([import('../store/store.ts'), import('../store/store-locator.ts')]);
  const db = await openStoreDb(storeLocator(storeText, place.cwd ?? process.cwd()), 'read');
  return { store: new Store(db), close: () => db.close() };
}

/**
 * `body` with a reader over the store `storeText` names, opened read-only and closed afterwards; a
 * SQLite failure while reading becomes a StoreError naming the store. A store whose log does not
 * read as weft's is still read (its sound runs are); after a body that succeeded, `damaged`
 * hears what is wrong and where (a command that writes refuses such a store).
 */
export async function withRunReader<T>(storeText: string, body: (reader: RunReader) => T | Promise<T>, damaged?: (what: string) => void, place: ReadOnlyPlace = {}): Promise<T> {
  const cwd = place.cwd ?? process.cwd();
  const { describeStore, storeLocator } = await import('../store/store-locator.ts');
  const where = storeLocator(storeText, cwd);
  const { store, close } = await openReadOnlyStore(storeText, place);
  try {
    const value = await body(new RunReader(store, systemClock, new FileArtifactStore(storeArtifactsDir(where, place.workspace ?? cwd))));
    if (damaged !== undefined) {
      const damage = store.logDamage();
      if (damage !== undefined) damaged(damage);
    }
    return value;
  } catch (e) {
    throw storeFailure(describeStore(where), e, 'read') ?? e;
  } finally {
    close();
  }
}
