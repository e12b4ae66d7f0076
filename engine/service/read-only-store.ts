// Commands that only read (runs, inspect, events, stats, compare) open the store without a lease
// and never create one: the store must be there. A SQLite store is opened read-only; a PostgreSQL
// one (the store text is a postgres:// URL, engine/store/store-locator.ts) through a connection
// that may write but does not make a store in an empty schema. Artifacts are read from the store's
// folder for them (storeArtifactsDir). A SQLite failure while reading becomes one line naming the
// store (exit 2); a PostgreSQL store is named without its password. The drivers are imported when
// a store is opened, not when the CLI starts. (Commands that schedule runs own the store through
// engine/host/engine-host.ts.)
import { storeFailure } from '../store/store-failure.ts';
import type { Store } from '../store/store.ts';
import type { ArtifactStore } from '../artifacts/artifact-store.ts';
import { RunReader } from './run-reader.ts';
import { systemClock } from '../time/clock.ts';

/** Where a reader's store is: relative paths are relative to `cwd`; a PostgreSQL store's artifacts are in `workspace`'s .weft/ (store-home.ts). */
export interface ReadOnlyPlace {
  cwd?: string;
  workspace?: string;
}

/** A store opened for reading, and what it is called in messages. */
export interface ReadOnlyStore {
  store: Store;
  artifacts: ArtifactStore;
  /** The folder of its artifacts (beside a SQLite file; $WEFT_ARTIFACTS_DIR or .weft/artifacts for PostgreSQL). */
  artifactsDir: string;
  /** `postgres` for a PostgreSQL store. */
  kind: 'sqlite' | 'postgres';
  /** The store in messages: its file, or its database without the password. */
  name: string;
  close(): void;
}

/**
 * For commands that only read: no lease, a store that must already exist. `text` is the store as
 * storePath (engine/cli/store-path.ts) chose it: an absolute file path or a PostgreSQL URL.
 * @example const { store, close } = await openReadOnlyStore('postgres://weft@db/weft?schema=team');
 */
export async function openReadOnlyStore(text: string, place: ReadOnlyPlace = {}): Promise<ReadOnlyStore> {
  const [{ storeLocator, describeStore, openStoreDb }, { storeArtifactsDir }, { Store }, { FileArtifactStore }] = await Promise.all([
    import('../store/store-locator.ts'),
    import('../store/store-home.ts'),
    import('../store/store.ts'),
    import('../artifacts/artifact-store.ts'),
  ]);
  const cwd = place.cwd ?? process.cwd();
  const where = storeLocator(text, cwd);
  const db = await openStoreDb(where, 'read');
  const artifactsDir = storeArtifactsDir(where, place.workspace ?? cwd);
  return { store: new Store(db), artifacts: new FileArtifactStore(artifactsDir), artifactsDir, kind: where.kind, name: describeStore(where), close: () => db.close() };
}

/**
 * `body` with a reader over the store `text` names (a file, opened read-only, or a PostgreSQL
 * URL), closed afterwards; a SQLite failure while reading becomes a StoreError naming the store.
 * A store whose log does not read as weft's is still read (its sound runs are); after a body that
 * succeeded, `damaged` hears what is wrong and where (a command that writes refuses such a store).
 */
export async function withRunReader<T>(text: string, body: (reader: RunReader) => T | Promise<T>, damaged?: (what: string) => void, place: ReadOnlyPlace = {}): Promise<T> {
  const { store, artifacts, name, close } = await openReadOnlyStore(text, place);
  try {
    const value = await body(new RunReader(store, systemClock, artifacts));
    if (damaged !== undefined) {
      const damage = store.logDamage();
      if (damage !== undefined) damaged(damage);
    }
    return value;
  } catch (e) {
    throw storeFailure(name, e, 'read') ?? e;
  } finally {
    close();
  }
}
