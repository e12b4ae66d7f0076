// Run data is the user's alone (issue 19, item 11): the store, its -wal and its -shm files were
// created 0644, so any local user could read every run's inputs and outputs. A fresh `weft run`
// under umask 022 now makes all three 0600, like serve.json. The files are looked at while the run
// holds the store open (its command step waits for the test), since SQLite removes -wal and -shm
// when the last connection closes.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runWeft } from './run-weft.ts';

const BIN = new URL('../../bin/weft.js', import.meta.url).pathname;

it.runIf(process.platform !== 'win32')('a fresh weft run makes the store, its -wal and its -shm 0600 under umask 022', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-store-mode-'));
  const started = join(dir, 'started');
  const go = join(dir, 'go');
  writeFileSync(join(dir, 'hold.weft.json'), JSON.stringify({
    format: 'weft/v1', id: 'hold', version: 1, name: 'Hold the store open',
    steps: [
      { id: 'wait_for_test', kind: 'command', config: { argv: ['sh', '-c', `touch '${started}'; while [ ! -e '${go}' ]; do sleep 0.05; done; echo '{}'`] } },
      { id: 'done', kind: 'end' },
    ],
    edges: [{ id: 'e', from: 'wait_for_test', to: 'done' }],
  }));
  const env = { ...process.env, WEFT_CONFIG_DIR: join(dir, 'config') };
  expect((await runWeft(['trust', dir], dir, { env: { WEFT_CONFIG_DIR: join(dir, 'config') } })).code).toBe(0);
  const db = join(dir, '.weft', 'weft.db');
  const run = spawn('sh', ['-c', `umask 022; exec "${process.execPath}" "${BIN}" run hold.weft.json`], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  run.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => run.on('close', (code) => resolve(code)));
  let ended = false;
  void exited.then(() => (ended = true));
  while (!existsSync(started) && !ended) await new Promise((r) => setTimeout(r, 20));
  expect(ended, stderr).toBe(false);
  const modes = Object.fromEntries([db, `${db}-wal`, `${db}-shm`].map((f) => [f.slice(db.length) || 'db', (statSync(f).mode & 0o777).toString(8)]));
  writeFileSync(go, '');
  expect(await exited, stderr).toBe(0);
  expect(modes).toEqual({ db: '600', '-wal': '600', '-shm': '600' });
});
