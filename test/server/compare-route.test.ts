// `GET /api/compare` over real HTTP: `weft serve` on a random port over a real store compares two
// runs it ran (different branches, then twins), answers what the shared schema parses, refuses a
// missing or oversized run id with 400 and its path, an unknown run with 404 naming its side, and
// a request without the token with 401. The app's CompareClient reads the same answers.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ElidedValue } from '../../shared/api/elided-value.ts';
import { RunComparison } from '../../shared/api/run-comparison.ts';
import { RunValue } from '../../shared/api/run-value.ts';
import { serve, type Serving } from '../../engine/server/serve.ts';
import { ApiError } from '../../renderer/api/api-client.ts';
import { CompareClient } from '../../renderer/api/compare-client.ts';
import { WAIT_BOUND_MS } from '../wait-until.ts';

const TOKEN = 'test-token-0123456789abcdefghijklmnopqrstuvwxyzABCDEF';
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

let root: string;
let serving: Serving;
const runs: string[] = [];

/** About 3 MB: 20,000 items, a 100 KB text and a note; runs a and b differ in item 7, the text and the note. */
function bulkInput(side: 'a' | 'b'): { items: { id: number; name: string; note: string }[]; text: string; note: string } {
  const items = Array.from({ length: 20_000 }, (_, id) => ({ id, name: `item ${id}`, note: 'x'.repeat(120) }));
  items[7] = { id: 7, name: `item 7 of ${side}`, note: `changed in ${side}` };
  return { items, text: side.repeat(100_000), note: `run ${side}` };
}

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
  // echo is given the whole run input (about 3 MB) and gives it back; count gives a small output.
  writeFileSync(join(workspace, 'bulk.weft.json'), JSON.stringify({
    format: 'weft/v1', id: 'bulk', version: 1, name: 'Bulk',
    steps: [
      { id: 'echo', kind: 'transform', config: { expression: 'input' } },
      { id: 'count', kind: 'transform', input: 'steps.echo.output', config: { expression: '{"items": $count(input.items)}' } },
      { id: 'done', kind: 'end', input: 'steps.count.output' },
    ],
    edges: [{ id: 'a', from: 'echo', to: 'count' }, { id: 'b', from: 'count', to: 'done' }],
  }));
  serving = await serve({ workspace, storePath: join(root, 'weft.db'), port: 0, appDir: undefined, version: '0.0.0-test', token: TOKEN, env: { ...process.env, WEFT_CONFIG_DIR: join(root, 'config') } });
  const inputs = [{ n: 20 }, { n: 2 }, { n: 20 }].map((input) => ({ workflow: 'branches', input }));
  for (const body of [...inputs, { workflow: 'bulk', input: bulkInput('a') }, { workflow: 'bulk', input: bulkInput('b') }]) {
    const r = await fetch(url('/api/runs'), { method: 'POST', headers, body: JSON.stringify(body) });
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
const bulkA = (): string => run(3);
const bulkB = (): string => run(4);

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

describe('GET /api/compare of runs holding 3 MB inputs', () => {
  /** The value an ElidedValue stub stands for, read back through GET /api/runs/:id/value. */
  const readBack = async (runId: string, stub: unknown): Promise<unknown> => {
    const { path } = ElidedValue.parse(stub);
    const r = await get(`/api/runs/${runId}/value?path=${encodeURIComponent(path)}`);
    expect(r.status).toBe(200);
    return RunValue.parse(r.body).value;
  };

  it('answers small, with stubs in place of large values that read back through the value route', async () => {
    const r = await fetch(url(`/api/compare?a=${bulkA()}&b=${bulkB()}`), { headers });
    expect(r.status).toBe(200);
    const text = await r.text();
    expect(text.length).toBeLessThan(256 * 1024);
    const c = RunComparison.parse(JSON.parse(text));
    expect(c.firstDifference).toMatchObject({ stepId: 'echo', kind: 'input', paths: ['$.items[7].name', '$.items[7].note', '$.note', '$.text'] });
    const echo = c.steps.find((s) => s.id === 'echo');
    // Each side's input and output are stubs of that run's values.
    expect(await readBack(bulkA(), echo?.a?.input)).toEqual(bulkInput('a'));
    expect(await readBack(bulkB(), echo?.b?.output)).toEqual(bulkInput('b'));
    expect(c.steps.find((s) => s.id === 'count')?.a?.output).toEqual({ items: 20_000 });
    // A field too large to ship is a stub of that field; small ones come as they are.
    const fields = c.firstDifference?.fields ?? [];
    expect(fields.find((f) => f.path === '$.note')).toEqual({ path: '$.note', a: 'run a', b: 'run b' });
    const textField = fields.find((f) => f.path === '$.text');
    expect(ElidedValue.parse(textField?.a).path).toBe('steps.echo.attempts[0].input.text');
    expect(await readBack(bulkB(), textField?.b)).toBe('b'.repeat(100_000));
    expect(echo?.fields.input.map((f) => f.path)).toEqual(['$.items[7].name', '$.items[7].note', '$.note', '$.text']);
    const inputText = c.inputDiff.find((f) => f.path === '$.text');
    expect(ElidedValue.parse(inputText?.a).path).toBe('run.input.text');
    expect(await readBack(bulkA(), inputText?.a)).toBe('a'.repeat(100_000));
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
