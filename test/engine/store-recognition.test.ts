// A store is recognised before anything is written to it (issue 9, defect 8): by its
// application_id, or, for a store created before weft stamped one, by its tables and schema
// version. Reading never creates, migrates or stamps a file; any other file is refused unchanged.
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION, WEFT_APPLICATION_ID } from '../../engine/store/migrations.ts';
import { openDatabase, type OpenMode } from '../../engine/store/open-database.ts';
import { StoreError } from '../../engine/store/store-error.ts';

const temp = () => mkdtempSync(join(tmpdir(), 'weft-recognise-'));

function refusal(path: string, mode: OpenMode): StoreError {
  try {
    openDatabase(path, { mode }).close();
  } catch (e) {
    if (e instanceof StoreError) return e;
    throw e;
  }
  throw new Error(`${path} was opened (${mode})`);
}

/** A store as weft wrote it before application_id: every migration, no stamp. */
function legacyStore(path: string, upTo = SCHEMA_VERSION): void {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  for (const m of MIGRATIONS.filter((x) => x.version <= upTo)) db.exec(m.sql);
  db.pragma(`user_version = ${upTo}`);
  db.prepare("INSERT INTO runs (id, workflow_id, version, state, created_at, updated_at) VALUES ('r1', 'w', 1, 'succeeded', 1, 2)").run();
  db.close();
}

function otherApplication(path: string, applicationId = 0): void {
  const db = new Database(path);
  if (applicationId !== 0) db.pragma(`application_id = ${applicationId}`);
  db.pragma('user_version = 3');
  db.exec("CREATE TABLE contacts (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO contacts (name) VALUES ('Ada')");
  db.close();
}

describe('recognising a weft store', () => {
  it('stamps a new store with weft’s application_id', () => {
    const db = openDatabase(join(temp(), 'new.db'));
    expect(db.pragma('application_id', { simple: true })).toBe(WEFT_APPLICATION_ID);
    db.close();
  });

  it('does not read a 0-byte file as a store, and never writes to it', () => {
    const path = join(temp(), 'empty.db');
    writeFileSync(path, '');
    for (const mode of ['read', 'write'] as const) {
      const e = refusal(path, mode);
      expect(e.code).toBe('not-a-store');
      expect(e.message).toContain(`${path} is empty, not a Weft store`);
      expect(readFileSync(path).length).toBe(0);
    }
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it.each([
    ['without an application_id', 0],
    ['with its own application_id', 0x46534c31],
  ])('refuses another application’s SQLite database %s, byte-identical after', (_name, appId) => {
    const path = join(temp(), 'contacts.db');
    otherApplication(path, appId);
    const before = readFileSync(path);
    for (const mode of ['read', 'write', 'create'] as const) {
      const e = refusal(path, mode);
      expect(e.code).toBe('not-a-store');
      expect(e.message).toMatch(/is an SQLite database of another application.*not a Weft store; nothing was changed/);
    }
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it('refuses a stamped store of a newer schema in every mode, byte-identical after', () => {
    const path = join(temp(), 'newer.db');
    const db = new Database(path);
    db.pragma(`application_id = ${WEFT_APPLICATION_ID}`);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    const before = readFileSync(path);
    for (const mode of ['read', 'write', 'create'] as const) expect(refusal(path, mode).code).toBe('newer-schema');
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('reads a store made before application_id without stamping it, and stamps it on the first write-open', () => {
    const path = join(temp(), 'legacy.db');
    legacyStore(path);
    const before = readFileSync(path);
    const read = openDatabase(path, { mode: 'read' });
    expect(read.prepare('SELECT id FROM runs').all()).toEqual([{ id: 'r1' }]);
    read.close();
    expect(readFileSync(path).equals(before)).toBe(true);
    const write = openDatabase(path, { mode: 'write' });
    expect(write.pragma('application_id', { simple: true })).toBe(WEFT_APPLICATION_ID);
    write.close();
  });

  it('upgrades an older unstamped store on a write-open, keeping its data', () => {
    const path = join(temp(), 'legacy2.db');
    legacyStore(path, 2);
    const db = openDatabase(path, { mode: 'write' });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma('application_id', { simple: true })).toBe(WEFT_APPLICATION_ID);
    expect(db.prepare('SELECT id FROM runs').all()).toEqual([{ id: 'r1' }]);
    db.close();
  });

  it('refuses to migrate an older store on a read-open, and says how to upgrade it', () => {
    const path = join(temp(), 'old.db');
    legacyStore(path, 2);
    const before = readFileSync(path);
    const e = refusal(path, 'read');
    expect(e.code).toBe('older-schema');
    expect(e.message).toMatch(/schema version 2, older than this Weft's \(\d+\).*weft resume --db/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('does not create a store, or its folder, when reading or writing an existing one is asked', () => {
    const dir = temp();
    for (const mode of ['read', 'write'] as const) {
      const e = refusal(join(dir, '.weft', 'weft.db'), mode);
      expect(e.code).toBe('no-store');
      expect(e.message).toContain(`there is no store at ${join(dir, '.weft', 'weft.db')}`);
    }
    expect(existsSync(join(dir, '.weft'))).toBe(false);
  });

  it('refuses a version-1-numbered database whose tables are not weft’s', () => {
    const path = join(temp(), 'other.db');
    const db = new Database(path);
    db.exec('CREATE TABLE runs (id TEXT)');
    db.pragma('user_version = 1');
    db.close();
    expect(refusal(path, 'create').code).toBe('not-a-store');
  });
});
