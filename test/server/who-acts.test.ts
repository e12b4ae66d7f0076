// Issue 20: who acts and why, when a command names neither, was decided in three places: the
// CLI fell back to "cli", the service to "weft", the server to the OS user (and a blank $USER
// became a blank name the server's own API refused); the reason was "no reason given" from the
// terminal, "pause from the app" from the app. Now one default serves every front end: the same
// pause, from a terminal and through the app's API, records the same person and the same reason.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serve, type Serving } from '../../engine/server/serve.ts';
import { runWeft } from '../cli/run-weft.ts';

const TOKEN = 'test-token-0123456789abcdefghijklmnopqrstuvwxyzABCDEF';
const root = mkdtempSync(join(tmpdir(), 'weft-who-acts-'));
const workspace = join(root, 'ws');
// No name in the environment: blank variables name no one.
const nameless = { WEFT_USER: '', USER: '', WEFT_CONFIG_DIR: join(root, 'config'), WEFT_LEASE_WAIT_MS: '0' };

const review = {
  format: 'weft/v1',
  id: 'review',
  version: 1,
  name: 'Review',
  steps: [{ id: 'check', kind: 'human', config: { task: 'approve', title: 'Check it' }, deadlineMs: 86_400_000 }, { id: 'done', kind: 'end' }],
  edges: [{ id: 'e1', from: 'check', to: 'done' }],
};

let serving: Serving | undefined;

beforeAll(() => {
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'review.weft.json'), JSON.stringify(review));
});

afterAll(async () => {
  await serving?.stop();
  rmSync(root, { recursive: true, force: true });
});

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  if (serving === undefined) throw new Error('no server');
  const res = await fetch(`${serving.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.json() };
}

const pauseReasons = (events: { type: string; reason: string | null }[]): (string | null)[] => events.filter((e) => e.type === 'operator_action').map((e) => e.reason);

it('a pause that names no one and gives no reason records the OS user and "no reason given", from the terminal and from the app alike', async () => {
  const expected = `paused by ${userInfo().username}: no reason given`;

  // From a terminal, on a store of its own.
  const cliDb = join(root, 'cli.db');
  const started = await runWeft(['run', 'review.weft.json', '--db', cliDb, '--json'], workspace, { env: nameless });
  expect(started.code, started.stderr).toBe(3);
  const { runId: cliRun } = JSON.parse(started.stdout) as { runId: string };
  const paused = await runWeft(['pause', cliRun, '--db', cliDb], workspace, { env: nameless });
  expect(paused.stderr).toBe('');
  expect(paused.code).toBe(3);
  const cliEvents = await runWeft(['events', cliRun, '--db', cliDb, '--json'], workspace, { env: nameless });
  expect(pauseReasons((JSON.parse(cliEvents.stdout) as { events: { type: string; reason: string | null }[] }).events)).toEqual([expected]);

  // From the app, through the server's API, with the same environment.
  serving = await serve({ workspace, storePath: join(root, 'app.db'), port: 0, appDir: undefined, version: '0.0.0-test', token: TOKEN, env: { ...process.env, ...nameless } });
  const run = await call('POST', '/api/runs', { workflow: 'review', input: {} });
  expect(run.status, JSON.stringify(run.body)).toBe(201);
  const { runId: appRun } = run.body as { runId: string };
  const pause = await call('POST', `/api/runs/${appRun}/actions`, { action: 'pause' });
  expect(pause.body).toEqual({ runId: appRun, state: 'paused' });
  expect(pause.status).toBe(200);
  const appEvents = await call('GET', `/api/runs/${appRun}/events`);
  expect(pauseReasons((appEvents.body as { events: { type: string; reason: string | null }[] }).events)).toEqual([expected]);
}, 60_000);
