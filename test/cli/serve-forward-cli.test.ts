// While `weft serve` owns a store, `weft run`, `send`, `approve` and `cancel` from a second
// process go through it: the same output and exit codes as on their own, no wait for the lease,
// and the runs are the server's (it drives them, and its own log shows them).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runWeft } from './run-weft.ts';

const BIN = new URL('../../bin/weft.js', import.meta.url).pathname;

const flow = {
  format: 'weft/v1',
  id: 'handoff',
  version: 1,
  name: 'Wait for go, then approval',
  input: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
  steps: [
    { id: 'go', kind: 'event', deadlineMs: 3_600_000, config: { name: 'go', correlationKey: 'input.key' } },
    { id: 'ok', kind: 'human', deadlineMs: 3_600_000, config: { task: 'approve', title: 'Approve {{ input.key }}' } },
    { id: 'done', kind: 'end' },
  ],
  edges: [
    { id: 'e1', from: 'go', to: 'ok' },
    { id: 'e2', from: 'ok', to: 'done' },
  ],
};

let root: string;
let workspace: string;
let env: Record<string, string>;
let server: ChildProcess;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'weft-forward-'));
  workspace = join(root, 'ws');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'handoff.weft.json'), JSON.stringify(flow));
  // A lease wait of 0: a command that did not go through the server would fail at once, not wait.
  env = { WEFT_CONFIG_DIR: join(root, 'config'), WEFT_DB: join(root, 'weft.db'), WEFT_LEASE_WAIT_MS: '0', WEFT_USER: 'tester' };
  server = spawn(process.execPath, [BIN, 'serve', '--workspace', workspace], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    server.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Weft Studio: http://127.0.0.1:')) resolve();
    });
    server.once('exit', (code) => reject(new Error(`weft serve exited ${code}`)));
  });
});

afterAll(async () => {
  if (server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGINT');
    await exited;
  }
  // A clean stop removes the endpoint file.
  expect(existsSync(join(root, 'serve.json'))).toBe(false);
  rmSync(root, { recursive: true, force: true });
});

const weft = (args: string[]) => runWeft(args, workspace, { env });

it('run, send, approve and cancel go through the server with their usual output and exit codes', async () => {
  const started = await weft(['run', 'handoff.weft.json', '--input', '{"key": "A17"}', '--json']);
  expect(started.stderr).toBe('');
  expect(started.code).toBe(3);
  const { runId, state } = JSON.parse(started.stdout) as { runId: string; state: string };
  expect(state).toBe('waiting');

  const sent = await weft(['send', 'go', '--key', 'A17', '--id', 'ev-1']);
  expect(sent).toMatchObject({ code: 0, stderr: '' });
  expect(sent.stdout).toBe(`event ev-1 delivered to run ${runId}: waiting\n`);

  const approved = await weft(['approve', runId, 'ok']);
  expect(approved).toMatchObject({ code: 0, stderr: '' });
  expect(approved.stdout).toBe(`run ${runId}: succeeded\n`);

  const second = await weft(['run', 'handoff.weft.json', '--input', '{"key": "B2"}']);
  expect(second.code).toBe(3);
  const secondId = /^run (\S+): waiting\n$/.exec(second.stdout)?.[1] ?? '';
  const cancelled = await weft(['cancel', secondId, '--reason', 'not needed']);
  expect(cancelled).toMatchObject({ code: 1, stdout: `run ${secondId}: cancelled\n`, stderr: '' });

  // A refused action comes back as the usual one-line message and exit 2.
  const refused = await weft(['approve', runId, 'ok']);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toMatch(/^weft approve: .+\n$/);

  // Read commands read the store the server writes.
  const listed = await weft(['runs', '--json']);
  const runs = (JSON.parse(listed.stdout) as { runs: { id: string; state: string }[] }).runs;
  expect(runs.map((r) => [r.id, r.state]).sort()).toEqual([
    [runId, 'succeeded'],
    [secondId, 'cancelled'],
  ].sort());
  const events = JSON.parse((await weft(['events', runId, '--json'])).stdout) as { events: { type: string; data: { by?: string } }[] };
  expect(events.events.find((e) => e.type === 'task_decided')?.data.by).toBe('tester');
});
