// Commands that only read (runs, inspect, events, stats, compare) open the store without a lease,
// read-only, and never create one: the store must be there. A SQLite failure while reading becomes
// one line naming the store (exit 2). SQLite is imported when a store is opened, not when the CLI
// starts. (Commands that schedule runs own the store through engine/host/engine-host.ts.)
import { storeFailure } from '../store/store-failure.ts';
import type { Store } from '../store/store.ts';
import { RunReader } from './run-reader.ts';
import { artifactsDirOf, FileArtifactStore } from '../artifacts/artifact-store.ts';
import { systemClock } from '../time/clock.ts';

/** For commands that only read: no lease, a store that must already exist, opened read-only. */
export async function openReadOnlyStore(dbPath: string): Promise<{ store: Store; close(): void }> {
  const [{ openDatabase }, { Store }] = await Promise.all([import('../store/open-database.ts'), import('../store/store.ts')]);
  const db = openDatabase(dbPath, { mode: 'read' });
  return { store: new Store(db), close: () => db.close() };
}

/**
 * `body` with a reader over the store at `dbPath`, opened read-only and closed afterwards; a
 * SQLite failure while reading becomes a StoreError naming the store. A store whose log does not
 * read as weft's is still read (its sound runs are); after a body that succeeded, `damaged`
 * hears what is wrong and where (a command that writes refuses such a store).
 */
export async function withRunReader<T>(dbPath: string, body: (reader: RunReader) => T | Promise<T>, damaged?: (what: string) => void): Promise<T> {
  const { store, close } = await openReadOnlyStore(dbPath);
  try {
    const value = await body(new RunReader(store, systemClock, new FileArtifactStore(artifactsDirOf(dbPath))));
    if (damaged !== undefined) {
      const damage = store.logDamage();
      if (damage !== undefined) damaged(damage);
    }
    return value;
  } catch (e) {
    throw storeFailure(dbPath, e, 'read') ?? e;
  } finally {
    close();
  }
}
