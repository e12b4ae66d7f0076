// Issue 19, item 10: the lease heartbeat of `weft serve` had no error handling, so a store that
// refused the write (a full disk, a damaged file) threw out of a timer and ended the process at
// once, its serve.json left behind. Now a failed heartbeat stops the engine as any store failure
// does: `weft serve` says what happened, removes serve.json and exits 2. The failure is real: a
// trigger in the store refuses the lease's update.
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { startServeProcess, type ServeProcess } from './serve-process.ts';

let server: ServeProcess | undefined;

afterEach(async () => {
  await server?.stop();
  server = undefined;
});

it('a heartbeat the store refuses stops weft serve cleanly: exit 2, the cause said, serve.json removed', async () => {
  server = await startServeProcess([]);
  expect(existsSync(server.endpointFile)).toBe(true);
  const db = new Database(server.db);
  db.exec("CREATE TRIGGER refuse_heartbeat BEFORE UPDATE ON lease BEGIN SELECT RAISE(ABORT, 'the disk refused the write'); END");
  db.close();
  // The next heartbeat (every 5 s) meets the trigger.
  const how = await server.exited;
  expect(how, server.stderr()).toBe('exit code 2, signal null');
  expect(server.stderr()).toMatch(/weft serve: the engine stopped: .*the disk refused the write/);
  expect(existsSync(server.endpointFile)).toBe(false);
}, 60_000);
