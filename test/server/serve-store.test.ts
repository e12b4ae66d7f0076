// `weft serve` opens its store as `weft run` does (create mode): it makes a new, stamped store
// where there is none, and refuses a file that is not a weft store, leaving it byte-identical.
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { serve } from '../../engine/server/serve.ts';
import { WEFT_APPLICATION_ID } from '../../engine/store/migrations.ts';
import { StoreError } from '../../engine/store/store-error.ts';

function setUp(): { workspace: string; options: (storePath: string) => Parameters<typeof serve>[0] } {
  const root = mkdtempSync(join(tmpdir(), 'weft-serve-store-'));
  const workspace = join(root, 'ws');
  mkdirSync(workspace);
  return {
    workspace,
    options: (storePath) => ({ workspace, storePath, port: 0, appDir: undefined, version: '0.0.0-test', token: 'test-token-0123456789abcdefghijklmnopqrstuvwxyz', env: { ...process.env, WEFT_CONFIG_DIR: join(root, 'config') } }),
  };
}

it('creates a stamped store where there is none', async () => {
  const { workspace, options } = setUp();
  const path = join(workspace, '.weft', 'weft.db');
  const serving = await serve(options(path));
  await serving.stop();
  const db = new Database(path, { readonly: true });
  expect(db.pragma('application_id', { simple: true })).toBe(WEFT_APPLICATION_ID);
  db.close();
});

it('refuses another application’s database, unchanged', async () => {
  const { workspace, options } = setUp();
  const path = join(workspace, 'contacts.db');
  const other = new Database(path);
  other.exec("CREATE TABLE contacts (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO contacts (name) VALUES ('Ada')");
  other.close();
  const before = readFileSync(path);
  const refused = await serve(options(path)).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(refused).toBeInstanceOf(StoreError);
  expect((refused as StoreError).code).toBe('not-a-store');
  expect(readFileSync(path).equals(before)).toBe(true);
  expect(existsSync(join(workspace, 'serve.json'))).toBe(false);
});
