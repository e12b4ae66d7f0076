// `GET /api/compare` over real HTTP: `weft serve` on a random port over a real store compares two
// runs it ran (different branches, then twins), answers what the shared schema parses, refuses a
// missing or oversized run id with 400 and its path, an unknown run with 404 naming its side, and
// a request without the token with 401. The app's CompareClient reads the same answers.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunComparison } from '../../shared/api/run-comparison.ts';
import { serve, type Serving } from '../../engine/server/serve.ts';
import { ApiError } from '../../renderer/api/api-client.ts';
import { CompareClient } from '../../renderer/api/compare-client.ts';
import { WAIT_BOUND_MS } from '../wait-until.ts';

const TOKEN = 'test-token-0123456789abcdefghijklmnopqrstuvwxyzABCDEF';
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

let root: string;
let serving: Serving;
const runs: string[] = [];

const url = (path: string): string => `http://127.0.0.1:${serving.port}${path}`;
const get = async (path: string, h: Record<string, string> = headers): Promise<{ status: number; body: unknown }> => {
  const r = await fetch(url(path), { headers: h });
  return { status: r.status, body: await r.json() };
};

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'weft-server-compare-'));
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'branches.weft.json'), JSON.stringify({
    format: 'weft/v1', id: 'branches', version: 1, name: 'Branches',
    steps: [
      { id: 'pick', kind: 'router', input: 'input' },
      { id: 'big', kind: 'transform', config: { expression: '{"size": "big"}' } },
      { id: 'small', kind: 'transform', config: { expression: '{"size": "small"}' } },
      { id: 'done', kind: 'end' },
      { id: 'done_small', kind: 'end' },
    ],
    edges: [
      { id: 'to_big', from: 'pick', to: 'big', when: 'output.n > 10' },
      { id: 'to_small', from: 'pick', to: 'small', default: true },
      { id: 'big_done', from: 'big', to: 'done' },
      { id: 'small_done', from: 'small', to: 'done_small' },
    ],
  }));
  serving = await serve({ workspace, storePath: join(root, 'weft.db'), port: 0, appDir: undefined, version: '0.0.0-test', token: TOKEN, env: { ...process.env, WEFT_CONFIG_DIR: join(root, 'config') } });
  for (const n of [20, 2, 20]) {
    const r = await fetch(url('/api/runs'), { method: 'POST', headers, body: JSON.stringify({ workflow: 'branches', input: { n } }) });
    expect(r.status).toBe(201);
    runs.push(((await r.json()) as { runId: string }).runId);
  }
  // Polls the runs' state (a bound, not a wait: each poll checks state).
  const deadline = Date.now() + WAIT_BOUND_MS;
  for (;;) {
    const states = await Promise.all(runs.map(async (id) => ((await get(`/api/runs/${id}`)).body as { run: { state: string } }).run.state));
    if (states.every((st) => st === 'succeeded')) break;
    if (Date.now() > deadline) throw new Error(`the runs did not succeed: ${states.join(', ')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
});

afterAll(async () => {
  await serving?.stop();
  rmSync(root, { recursive: true, force: true });
});

const run = (i: number): string => runs[i] ?? '';
const big = (): string => run(0);
const small = (): string => run(1);
const bigAgain = (): string => run(2);

describe('GET /api/compare', () => {
  it('names the router where two runs took different branches', async () => {
    const r = await get(`/api/compare?a=${big()}&b=${small()}`);
    expect(r.status).toBe(200);
    const c = RunComparison.parse(r.body);
    expect(c.runs.map((x) => x.id)).toEqual([big(), small()]);
    expect(c.firstDifference).toEqual({ stepId: 'pick', kind: 'path', why: 'A took pick→big, B took pick→small' });
    expect(c.route).toEqual({ a: ['pick', 'big', 'done'], b: ['pick', 'small', 'done_small'] });
    expect(c.same).toBe(false);
  });

  it('finds no difference between twin runs, by id prefix', async () => {
    const c = RunComparison.parse((await get(`/api/compare?a=${big().slice(0, -1)}&b=${bigAgain()}`)).body);
    expect(c).toMatchObject({ firstDifference: null, same: true, versionDiff: null });
  });

  it.each([
    ['b missing', () => `a=${big()}`, '$.b'],
    ['a empty', () => `a=&b=${big()}`, '$.a'],
    ['an id over 200 characters', () => `a=${'r'.repeat(201)}&b=${big()}`, '$.a'],
    ['an unknown parameter', () => `a=${big()}&b=${big()}&c=1`, '$.c'],
    ['a given twice', () => `a=${big()}&a=${small()}&b=${big()}`, '$.a'],
  ])('refuses %s with 400 and its path', async (_what, query, path) => {
    const r = await get(`/api/compare?${query()}`);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: { code: 'bad-input', path } });
  });

  it('answers an unknown run with 404 naming its side', async () => {
    const r = await get(`/api/compare?a=${big()}&b=rnope`);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: { code: 'not-found', message: 'run B: no run "rnope" in this store; list runs with `weft runs`' } });
  });

  it('refuses a request without the token', async () => {
    const r = await get(`/api/compare?a=${big()}&b=${small()}`, {});
    expect(r.status).toBe(401);
  });
});

describe('CompareClient', () => {
  it('reads the comparison, and turns a refusal into an ApiError with its code', async () => {
    const client = new CompareClient(TOKEN, `http://127.0.0.1:${serving.port}`);
    const c = await client.compare(small(), big());
    expect(c.firstDifference).toMatchObject({ stepId: 'pick', kind: 'path', why: 'A took pick→small, B took pick→big' });
    const refused = await client.compare('rnope', big()).then(() => undefined, (e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 404, code: 'not-found', message: expect.stringMatching(/^run A: /) });
  });
});
