// Large payloads over real HTTP: `weft serve` on a random port over a real store runs a step whose
// output is about 5 MB. GET /api/runs/:id stays small and carries an ElidedValue stub in its
// place; GET /api/runs/:id/value serves the value by path, whole, level by level and in slices,
// and says clearly what is wrong with a bad or unknown path. `weft inspect --json` (a real child
// process on the same store) still prints the whole value.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorBody } from '../../shared/api/api-error.ts';
import { DETAIL_VALUE_LIMIT, ElidedValue, isElidedValue } from '../../shared/api/elided-value.ts';
import { RunDetail } from '../../shared/api/run-detail.ts';
import { RunValue } from '../../shared/api/run-value.ts';
import { serve, type Serving } from '../../engine/server/serve.ts';
import { runWeft } from '../cli/run-weft.ts';

const TOKEN = 'test-token-0123456789abcdefghijklmnopqrstuvwxyzABCDEF';
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const ITEMS = 40_000;

let root: string;
let db: string;
let serving: Serving;
let runId: string;

const get = async (path: string): Promise<{ status: number; text: string; body: unknown }> => {
  const r = await fetch(`http://127.0.0.1:${serving.port}${path}`, { headers });
  const text = await r.text();
  return { status: r.status, text, body: JSON.parse(text) };
};

/** The items the `fetch` step outputs: what the tests compare against. */
const item = (i: number) => ({ id: i, name: `item ${i}`, tags: ['a', 'b'], note: 'x'.repeat(90) });

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'weft-server-payloads-'));
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  db = join(root, 'weft.db');
  writeFileSync(join(workspace, 'big.weft.json'), JSON.stringify({
    format: 'weft/v1', id: 'big', version: 1, name: 'Big output',
    steps: [
      { id: 'fetch', kind: 'transform', config: { expression: `{"count": ${ITEMS}, "items": [0..${ITEMS - 1}].{"id": $, "name": "item " & $, "tags": ["a", "b"], "note": $pad("", 90, "x")}, "odd key": {"a b": [1, 2, 3]}}` } },
      { id: 'done', kind: 'end' },
    ],
    edges: [{ id: 'a', from: 'fetch', to: 'done' }],
  }));
  writeFileSync(join(workspace, 'review.weft.json'), JSON.stringify({
    format: 'weft/v1', id: 'review', version: 1, name: 'Review',
    steps: [{ id: 'check', kind: 'human', config: { task: 'approve', title: 'Check it' }, deadlineMs: 86_400_000 }, { id: 'done', kind: 'end' }],
    edges: [{ id: 'a', from: 'check', to: 'done' }],
  }));
  serving = await serve({ workspace, storePath: db, port: 0, appDir: undefined, version: '0.0.0-test', token: TOKEN, env: { ...process.env, WEFT_CONFIG_DIR: join(root, 'config') } });
  const r = await fetch(`http://127.0.0.1:${serving.port}/api/runs`, { method: 'POST', headers, body: JSON.stringify({ workflow: 'big', input: { topic: 'small input' } }) });
  const started = (await r.json()) as { runId: string; state: string };
  runId = started.runId;
  // Waits for the state, never for a time: the step runs on the server's engine.
  for (let state = ''; state !== 'succeeded'; ) {
    state = RunDetail.parse((await get(`/api/runs/${runId}`)).body).run.state;
    expect(['running', 'succeeded']).toContain(state);
  }
});

afterAll(async () => {
  await serving?.stop();
  rmSync(root, { recursive: true, force: true });
});

const OUTPUT = 'steps.fetch.attempts[0].output';

describe('GET /api/runs/:id with a 5 MB output', () => {
  it('ships a small detail with an ElidedValue stub in place of the output, small values as they are', async () => {
    const answer = await get(`/api/runs/${runId}`);
    expect(answer.status).toBe(200);
    expect(answer.text.length).toBeLessThan(64 * 1024);
    const detail = RunDetail.parse(answer.body);
    expect(detail.run.input).toEqual({ topic: 'small input' });
    const attempt = detail.steps.find((s) => s.id === 'fetch')?.attempts[0];
    const stub = ElidedValue.parse(attempt?.output);
    expect(stub).toMatchObject({ $weft: 'elided', path: OUTPUT, kind: 'object', count: 3 });
    expect(stub.bytes).toBeGreaterThan(4_000_000);
    expect(stub.preview).toBe(JSON.stringify({ count: ITEMS, items: [item(0), item(1)] }).slice(0, 200));
    // The end step's input is small: it stays a value.
    expect(isElidedValue(detail.steps.find((s) => s.id === 'done')?.attempts[0]?.input)).toBe(false);
  });
});

describe('GET /api/runs/:id/value', () => {
  it('serves the whole value by the stub\'s path, the size the stub said', async () => {
    const answer = await get(`/api/runs/${runId}/value?path=${encodeURIComponent(OUTPUT)}`);
    expect(answer.status).toBe(200);
    const v = RunValue.parse(answer.body);
    expect(v).toMatchObject({ path: OUTPUT, kind: 'object', total: 3, offset: 0 });
    const output = v.value as { count: number; items: unknown[] };
    expect(output.count).toBe(ITEMS);
    expect(output.items).toHaveLength(ITEMS);
    expect(output.items[12_345]).toEqual(item(12_345));
    const stub = ElidedValue.parse(RunDetail.parse((await get(`/api/runs/${runId}`)).body).steps[0]?.attempts[0]?.output);
    expect(v.bytes).toBe(stub.bytes);
    expect(Buffer.byteLength(JSON.stringify(v.value))).toBe(stub.bytes);
  });

  it('opens a value level by level: depth=1 stubs the large children, keeps the small ones', async () => {
    const answer = await get(`/api/runs/${runId}/value?path=${encodeURIComponent(OUTPUT)}&depth=1`);
    expect(answer.status).toBe(200);
    expect(answer.text.length).toBeLessThan(4096);
    const v = RunValue.parse(answer.body);
    const value = v.value as Record<string, unknown>;
    expect(value['count']).toBe(ITEMS);
    expect(value['odd key']).toEqual({ 'a b': [1, 2, 3] });
    expect(ElidedValue.parse(value['items'])).toMatchObject({ path: `${OUTPUT}.items`, kind: 'array', count: ITEMS });

    // The stub's path, one level down, sliced: small items come whole.
    const page = RunValue.parse((await get(`/api/runs/${runId}/value?path=${encodeURIComponent(`${OUTPUT}.items`)}&depth=1&offset=100&limit=3`)).body);
    expect(page).toMatchObject({ kind: 'array', total: ITEMS, offset: 100 });
    expect(page.value).toEqual([item(100), item(101), item(102)]);
  });

  it('takes the part of a value a path names, in either spelling of an index', async () => {
    for (const path of [`${OUTPUT}.items[7].name`, 'steps.fetch.attempts.0.output.items.7.name']) {
      const v = RunValue.parse((await get(`/api/runs/${runId}/value?path=${encodeURIComponent(path)}`)).body);
      expect(v).toMatchObject({ path: `${OUTPUT}.items[7].name`, kind: 'string', total: null, value: 'item 7' });
    }
    const odd = RunValue.parse((await get(`/api/runs/${runId}/value?path=${encodeURIComponent(`${OUTPUT}["odd key"]["a b"][2]`)}`)).body);
    expect(odd.value).toBe(3);
    const input = RunValue.parse((await get(`/api/runs/${runId}/value?path=run.input`)).body);
    expect(input.value).toEqual({ topic: 'small input' });
  });

  it('slices an object\'s keys in their order', async () => {
    const v = RunValue.parse((await get(`/api/runs/${runId}/value?path=${encodeURIComponent(OUTPUT)}&depth=1&offset=1&limit=1`)).body);
    expect(Object.keys(v.value as object)).toEqual(['items']);
    expect(v).toMatchObject({ total: 3, offset: 1 });
  });

  it.each([
    ['a malformed path', 'run..input', 400, 'bad-input', 'the value path "run..input": expected a name after "." at character 5'],
    ['an unclosed bracket', `${OUTPUT}.items[3`, 400, 'bad-input', 'is never closed'],
    ['a bad index', `${OUTPUT}.items[-1]`, 400, 'bad-input', 'expected an index or a quoted key inside []'],
    ['an unknown step', 'steps.nope.attempts[0].output', 404, 'not-found', 'the run has no step "nope" (its steps: fetch, done)'],
    ['an index past the end', `${OUTPUT}.items[${ITEMS}]`, 404, 'not-found', `${OUTPUT}.items has ${ITEMS} items; there is no [${ITEMS}]`],
    ['an unknown key', `${OUTPUT}.itemz`, 404, 'not-found', `${OUTPUT} has no key "itemz" (its keys: count, items, odd key)`],
    ['a key of a number', `${OUTPUT}.count.x`, 404, 'not-found', `${OUTPUT}.count is a number; it has no "x" inside`],
  ])('answers %s with a one-line error', async (_what, path, status, code, message) => {
    const answer = await get(`/api/runs/${runId}/value?path=${encodeURIComponent(path)}`);
    expect(answer.status).toBe(status);
    const body = ApiErrorBody.parse(answer.body);
    expect(body.error.code).toBe(code);
    expect(body.error.message).toContain(message);
    expect(body.error.message).not.toContain('\n');
  });

  it.each([
    ['no path', '', 'the query: $.path: is required'],
    ['an empty path', '?path=', 'give the value path, e.g. ?path=run.input'],
    ['a depth of 0', '?path=run.input&depth=0', 'depth must be 1 or more'],
    ['a limit too big', '?path=run.input&limit=999999', 'limit is at most 5000'],
    ['an unknown field', '?path=run.input&deep=2', 'unknown field "deep"'],
  ])('refuses a query with %s', async (_what, query, message) => {
    const answer = await get(`/api/runs/${runId}/value${query}`);
    expect(answer.status).toBe(400);
    expect(ApiErrorBody.parse(answer.body).error.message).toContain(message);
  });

  it('follows a run that goes on: a value asked for again reflects the events since', async () => {
    const r = await fetch(`http://127.0.0.1:${serving.port}/api/runs`, { method: 'POST', headers, body: JSON.stringify({ workflow: 'review', input: { n: 1 } }) });
    const startedBody = await r.json();
    expect(r.status, JSON.stringify(startedBody)).toBe(201);
    const review = (startedBody as { runId: string }).runId;
    const state = async () => RunValue.parse((await get(`/api/runs/${review}/value?path=steps.check.state`)).body).value;
    await expect.poll(state).toBe('waiting');
    expect(await state()).toBe('waiting');
    const approved = await fetch(`http://127.0.0.1:${serving.port}/api/tasks/${review}/check`, { method: 'POST', headers, body: JSON.stringify({ action: 'approve', by: 'ana' }) });
    expect(approved.status).toBe(200);
    expect(await state()).toBe('succeeded');
  });

  it('answers an unknown run with 404', async () => {
    const answer = await get('/api/runs/no-such-run/value?path=run.input');
    expect(answer.status).toBe(404);
    expect(ApiErrorBody.parse(answer.body).error.code).toBe('not-found');
  });
});

describe('GET /api/runs/:id/events with elide', () => {
  interface Ev { seq: number; type: string; step: string | null; data: Record<string, unknown> }
  const page = async (query: string) => {
    const answer = await get(`/api/runs/${runId}/events?after=0&limit=1000${query}`);
    expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    return { text: answer.text, events: (answer.body as { events: Ev[] }).events };
  };

  it('ships the events small, with a stub in place of the 5 MB output, everything else as stored', async () => {
    const whole = await page('');
    const cut = await page(`&elide=${DETAIL_VALUE_LIMIT}`);
    expect(whole.text.length).toBeGreaterThan(5_000_000);
    expect(cut.text.length).toBeLessThan(64 * 1024);
    expect(cut.events.map((e) => [e.seq, e.type, e.step])).toEqual(whole.events.map((e) => [e.seq, e.type, e.step]));
    const done = cut.events.find((e) => e.type === 'attempt_succeeded' && e.step === 'fetch') as Ev;
    const stub = ElidedValue.parse(done.data['output']);
    expect(stub).toMatchObject({ $weft: 'elided', path: `events[${done.seq}].data.output`, kind: 'object', count: 3 });
    const original = whole.events.find((e) => e.seq === done.seq) as Ev;
    expect(stub.bytes).toBe(Buffer.byteLength(JSON.stringify(original.data['output'])));
    // Small values of the same event are kept as they are.
    expect(done.data['evidenceId']).toBe(original.data['evidenceId']);
    expect(done.data['covers']).toEqual(original.data['covers']);
    // Events with nothing large are byte-identical.
    const small = (es: Ev[]) => es.filter((e) => e.seq !== done.seq).map((e) => JSON.stringify(e));
    expect(small(cut.events)).toEqual(small(whole.events));
  });

  it('serves a stub\'s value by its path from the stored event, whole and level by level', async () => {
    const cut = await page(`&elide=${DETAIL_VALUE_LIMIT}`);
    const done = cut.events.find((e) => e.type === 'attempt_succeeded' && e.step === 'fetch') as Ev;
    const path = ElidedValue.parse(done.data['output']).path;
    const full = RunValue.parse((await get(`/api/runs/${runId}/value?path=${encodeURIComponent(path)}`)).body);
    expect(full.path).toBe(path);
    expect((full.value as { items: unknown[] }).items).toHaveLength(ITEMS);
    expect((full.value as { items: unknown[] }).items[123]).toEqual(item(123));
    const level = RunValue.parse((await get(`/api/runs/${runId}/value?path=${encodeURIComponent(`${path}.items`)}&depth=1&limit=2`)).body);
    expect(level).toMatchObject({ path: `${path}.items`, total: ITEMS, offset: 0, value: [item(0), item(1)] });
  });

  it('says what is wrong with an elide out of range or a path to no event', async () => {
    const low = await get(`/api/runs/${runId}/events?elide=10`);
    expect(low.status).toBe(400);
    expect(ApiErrorBody.parse(low.body).error.message).toMatch(/elide/);
    const none = await get(`/api/runs/${runId}/value?path=${encodeURIComponent('events[99999].data.output')}`);
    expect(none.status).toBe(404);
    expect(ApiErrorBody.parse(none.body).error.message).toMatch(/has no event 99999/);
    const noKey = await get(`/api/runs/${runId}/value?path=${encodeURIComponent('events[1].data.nope')}`);
    expect(noKey.status).toBe(404);
    expect(ApiErrorBody.parse(noKey.body).error.message).toMatch(/events\[1\]\.data has no key "nope"/);
    const bySeq = await get(`/api/runs/${runId}/value?path=events.first`);
    expect(bySeq.status).toBe(404);
    expect(ApiErrorBody.parse(bySeq.body).error.message).toMatch(/address an event by its seq/);
  });
});

describe('weft inspect --json', () => {
  it('still prints the whole value (the CLI contract does not change)', async () => {
    const r = await runWeft(['inspect', runId, '--db', db, '--json'], root, { env: { WEFT_CONFIG_DIR: join(root, 'config') } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const detail = RunDetail.parse(JSON.parse(r.stdout));
    const output = detail.steps[0]?.attempts[0]?.output as { items: unknown[] };
    expect(isElidedValue(output)).toBe(false);
    expect(output.items).toHaveLength(ITEMS);
    expect(output.items[ITEMS - 1]).toEqual(item(ITEMS - 1));
    expect(r.stdout.length).toBeGreaterThan(DETAIL_VALUE_LIMIT * 50);
  });
});
