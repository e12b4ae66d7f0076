// Is this SQLite file a weft store? Decided from what SQLite reads without writing (the header's
// application_id and user_version, and the schema), before anything is written to the file, so a
// mistyped --db never alters someone else's database.
import type Database from 'better-sqlite3';
import { SCHEMA_VERSION, tablesOfVersion, WEFT_APPLICATION_ID } from './migrations.ts';
import { StoreError } from './store-error.ts';

export type Recognised =
  /** No table and no version: a new file (or a 0-byte one) that a store can be made in. */
  | { kind: 'empty' }
  /** A weft store; `stamped` is false for one made before weft set its application_id. */
  | { kind: 'store'; version: number; stamped: boolean };

/** Throws StoreError for a file that is an SQLite database but not a weft store we can use. */
export function recogniseStore(db: Database.Database, path: string): Recognised {
  const appId = db.pragma('application_id', { simple: true }) as number;
  const version = db.pragma('user_version', { simple: true }) as number;
  const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'").all() as { name: string }[]).map((r) => r.name));
  if (appId === WEFT_APPLICATION_ID) {
    checkNotNewer(path, version);
    return { kind: 'store', version, stamped: true };
  }
  if (appId === 0 && version === 0 && tables.size === 0) return { kind: 'empty' };
  // Before application_id, a store was known by its schema version and the tables it implies.
  const legacy = appId === 0 && version >= 1 && tablesOfVersion(Math.min(version, SCHEMA_VERSION)).every((t) => tables.has(t));
  if (!legacy) {
    const id = appId === 0 ? 'no application_id' : `application_id 0x${(appId >>> 0).toString(16)}`;
    throw new StoreError(
      'not-a-store',
      `${path} is an SQLite database of another application (${id}, tables ${[...tables].slice(0, 5).join(', ') || 'none'}), not a Weft store; nothing was changed; point --db at a Weft store, or at a new path to create one`,
    );
  }
  checkNotNewer(path, version);
  return { kind: 'store', version, stamped: false };
}

function checkNotNewer(path: string, version: number): void {
  if (version > SCHEMA_VERSION) {
    throw new StoreError(
      'newer-schema',
      `the store ${path} has schema version ${version}, newer than this Weft understands (${SCHEMA_VERSION}); nothing was changed; use a newer Weft, or another store with --db`,
    );
  }
}
