// A `weft serve` that takes the store's lease and then cannot listen (its port is taken) must give
// the store back before it says why: before the engine host (issue 20) it kept the lease, the
// open database and the heartbeat, so the store stayed "being run by weft serve" for as long as
// the failed server's process lived (the desktop app's process, when it starts the engine in it).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serve } from '../../engine/server/serve.ts';

const root = mkdtempSync(join(tmpdir(), 'weft-serve-start-'));
const workspace = join(root, 'ws');
let taken: Server;
let port = 0;

beforeAll(async () => {
  mkdirSync(workspace);
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const address = taken.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  port = address.port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => taken.close(() => resolve()));
  rmSync(root, { recursive: true, force: true });
});

it('a server whose port is taken fails with the cause and leaves no lease and no serve.json behind', async () => {
  const storePath = join(root, 'weft.db');
  const failed = await serve({ workspace, storePath, port, appDir: undefined, version: '0.0.0-test', token: 'test-token-0123456789abcdefghijklmnopqrstuvwxyz', env: { ...process.env, WEFT_CONFIG_DIR: join(root, 'config') } }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(failed).toBeInstanceOf(Error);
  expect((failed as NodeJS.ErrnoException).code).toBe('EADDRINUSE');
  const db = new Database(storePath, { readonly: true });
  const lease = db.prepare('SELECT owner, pid FROM lease').all();
  db.close();
  expect(lease).toEqual([]);
  expect(existsSync(join(root, 'serve.json'))).toBe(false);
});
