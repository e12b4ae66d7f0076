// Debug runs while `weft serve` owns the store: `weft run --break/--pin`, `weft step` and `weft
// continue` from a terminal go through the server (no wait for the lease), and the HTTP API starts
// a debug run (POST /api/runs with `debug`), lists it as debug, and continues it
// (POST /api/runs/:id/actions {"action":"continue"}); a breakpoint on no step is a 400 naming it.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiErrorBody } from '../../shared/api/api-error.ts';
import { RunDetail } from '../../shared/api/run-detail.ts';
import { RunSummaryPage } from '../../shared/api/run-summary.ts';
import { runWeft } from './run-weft.ts';
import { waitFor } from '../wait-until.ts';

const BIN = new URL('../../bin/weft.js', import.meta.url).pathname;

let root: string;
let workspace: string;
let calls: string;
let env: Record<string, string>;
let server: ChildProcess;
let url = '';
let token = '';

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'weft-debug-serve-'));
  workspace = join(root, 'ws');
  calls = join(root, 'calls.txt');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'agentish.weft.json'), JSON.stringify({
    format: 'weft/v1',
    id: 'agentish',
    version: 1,
    name: 'An expensive call, then two cheap steps',
    steps: [
      { id: 'expensive', kind: 'command', config: { argv: ['sh', '-c', `echo called >> "$OUT"; echo '{"answer":"real"}'`], env: { OUT: calls } } },
      { id: 'shape', kind: 'transform', config: { expression: 'steps.expensive.output' } },
      { id: 'finish', kind: 'transform', config: { expression: 'steps.shape.output' } },
      { id: 'done', kind: 'end' },
    ],
    edges: [
      { id: 'e1', from: 'expensive', to: 'shape' },
      { id: 'e2', from: 'shape', to: 'finish' },
      { id: 'e3', from: 'finish', to: 'done' },
    ],
  }));
  // A lease wait of 0: a command that did not go through the server would fail at once, not wait.
  env = { WEFT_CONFIG_DIR: join(root, 'config'), WEFT_DB: join(root, 'weft.db'), WEFT_LEASE_WAIT_MS: '0', WEFT_USER: 'tester' };
  expect((await runWeft(['trust', workspace], workspace, { env })).code).toBe(0);
  server = spawn(process.execPath, [BIN, 'serve', '--workspace', workspace], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    server.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Weft Studio: http://127.0.0.1:')) resolve();
    });
    server.once('exit', (code) => reject(new Error(`weft serve exited ${code}`)));
  });
  const endpoint = JSON.parse(readFileSync(join(root, 'serve.json'), 'utf8')) as { url: string; token: string };
  url = endpoint.url;
  token = endpoint.token;
});

afterAll(async () => {
  if (server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGINT');
    await exited;
  }
  rmSync(root, { recursive: true, force: true });
});

const weft = (args: string[]) => runWeft(args, workspace, { env });
const callCount = (): number => (existsSync(calls) ? readFileSync(calls, 'utf8').split('\n').filter((l) => l !== '').length : 0);

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.json() };
}

async function untilState(runId: string, state: string): Promise<RunDetail> {
  return waitFor(async () => {
    const detail = RunDetail.parse((await api('GET', `/api/runs/${runId}`)).body);
    return detail.run.state === state ? detail : undefined;
  }, `run ${runId} to become ${state}`);
}

it('weft run --pin --break, weft step and weft continue go through the server', async () => {
  const started = await weft(['run', 'agentish.weft.json', '--pin', 'expensive={"answer":"pinned"}', '--break', 'shape', '--json']);
  expect(started.stderr).toBe('');
  expect(started.code).toBe(3);
  const { runId } = JSON.parse(started.stdout) as { runId: string };
  expect(callCount()).toBe(0);

  const stepped = await weft(['step', runId]);
  expect(stepped).toMatchObject({ code: 3, stderr: '', stdout: `run ${runId}: paused\n` });
  expect((await untilState(runId, 'paused')).run.debug?.pausedAt).toEqual({ step: 'finish', activation: 1 });

  const continued = await weft(['continue', runId]);
  expect(continued).toMatchObject({ code: 0, stderr: '', stdout: `run ${runId}: succeeded\n` });
  const detail = await untilState(runId, 'succeeded');
  expect(detail.steps.find((s) => s.id === 'finish')?.attempts[0]?.output).toEqual({ answer: 'pinned' });
  expect(callCount()).toBe(0);
});

it('the HTTP API starts a debug run, lists it as debug, and continues it', async () => {
  const refused = await api('POST', '/api/runs', { workflow: 'agentish', input: {}, debug: { breakpoints: ['nope'] } });
  expect(refused.status).toBe(400);
  expect(ApiErrorBody.parse(refused.body).error).toMatchObject({ path: '$.debug.breakpoints', message: expect.stringMatching(/^the breakpoint "nope" names no step of workflow "agentish"/) });

  const started = await api('POST', '/api/runs', { workflow: 'agentish', input: {}, debug: { breakpoints: ['expensive'] } });
  expect(started.status).toBe(201);
  const { runId } = started.body as { runId: string };
  const paused = await untilState(runId, 'paused');
  expect(paused.run.permittedActions.map((a) => a.action)).toEqual(['resume', 'cancel', 'revise', 'continue', 'step']);
  const page = RunSummaryPage.parse((await api('GET', '/api/runs')).body);
  expect(page.runs.find((r) => r.id === runId)?.debug).toBe(true);

  const before = callCount();
  const continued = await api('POST', `/api/runs/${runId}/actions`, { action: 'continue', reason: 'go on' });
  expect(continued.status).toBe(200);
  await untilState(runId, 'succeeded');
  expect(callCount()).toBe(before + 1);
  const again = await api('POST', `/api/runs/${runId}/actions`, { action: 'step' });
  expect(again.status).toBe(409);
  expect(ApiErrorBody.parse(again.body).error.message).toMatch(/not paused at a breakpoint/);
});
