// An operator recovers a record-update run that failed through an end step, with the real `weft`
// CLI against examples/fake-api.mjs (the records API), behind a proxy on 127.0.0.1 that breaks the
// PUT the way a real outage does: 500 for every write, or a request that is received and never
// answered. After retry, skip or resolve, the end step that failed the run no longer ends it: it is
// passed over (still shown as reached), and the run goes on to verify, notify_intent and done. The
// records API sees each change applied once.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REPO_ROOT, runWeft, type WeftResult } from './run-weft.ts';

interface FakeApi {
  url: string;
  close: () => Promise<void>;
  requests: { method: string; path: string; status: number; replayed: boolean }[];
}
interface StepJson {
  id: string;
  state: string;
  next: string;
  passedOver?: { reason: string };
  attempts: { id: string; state: string }[];
}

/** How the proxy treats PUTs: fail them with 500, drop them unanswered (never forwarded), or pass them on. */
type Mode = 'fail' | 'drop' | 'pass';

/** A fresh records API per test (record A17 at revision 3), behind the same proxy. */
let api: FakeApi;
let startFakeApi: (port?: number) => Promise<FakeApi>;
let proxy: Server;
let proxyUrl: string;
let mode: Mode = 'pass';
let dir: string;

function forward(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
  const target = new URL(req.url ?? '/', api.url);
  const out = request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (reply) => {
    res.writeHead(reply.statusCode ?? 502, reply.headers);
    reply.pipe(res);
  });
  out.end(body);
}

beforeAll(async () => {
  const module = (await import(pathToFileURL(join(REPO_ROOT, 'examples', 'fake-api.mjs')).href)) as { startFakeApi: (port?: number) => Promise<FakeApi> };
  startFakeApi = module.startFakeApi;
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'PUT' && mode === 'fail') {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"internal","message":"the records store is down"}');
      } else if (req.method === 'PUT' && mode === 'drop') {
        req.socket.destroy(); // received, never answered: whether it was applied is unknown to the caller
      } else forward(req, res, Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), 'weft-failed-end-'));
  // The example as shipped, with its retry intervals shortened so the test does not wait on backoffs.
  const wf = JSON.parse(readFileSync(join(REPO_ROOT, 'examples', 'record-update.weft.json'), 'utf8')) as { $schema?: string; steps: { id: string; retry?: Record<string, number> }[] };
  delete wf.$schema;
  for (const s of wf.steps) if (s.retry !== undefined) Object.assign(s.retry, { initialIntervalMs: 50, maxIntervalMs: 100, jitter: 0 });
  writeFileSync(join(dir, 'record-update.weft.json'), JSON.stringify(wf, null, 2));
});

beforeEach(async () => {
  api = await startFakeApi(0);
});
afterEach(async () => {
  await api?.close();
});

afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

let stores = 0;
function session(recordId = 'A17') {
  stores += 1;
  const db = join(dir, `store-${stores}.db`);
  const weft = (args: readonly string[]): Promise<WeftResult> => runWeft([...args, '--db', db], dir, { timeoutMs: 60_000 });
  const json = async <T>(args: readonly string[], code: number): Promise<T> => {
    const r = await weft([...args, '--json']);
    if (r.code !== code) throw new Error(`weft ${args.join(' ')} exited ${r.code}, expected ${code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
    return JSON.parse(r.stdout) as T;
  };
  const input = { apiBase: proxyUrl, recordId, field: 'status', value: 'archived', baseRevision: 3, recipient: 'R2' };
  return {
    weft,
    run: (code: number) => json<{ runId: string; state: string }>(['run', 'record-update.weft.json', '--input', JSON.stringify(input)], code),
    act: (args: readonly string[], code: number) => json<{ runId: string; state: string }>(args, code),
    steps: async (runId: string) => new Map((await json<{ steps: StepJson[] }>(['inspect', runId], 0)).steps.map((s) => [s.id, s])),
  };
}

/** PUTs of the record that reached the records API, and were applied (200). */
const applied = (recordId: string): number => api.requests.filter((r) => r.method === 'PUT' && r.path === `/records/${recordId}` && r.status === 200 && !r.replayed).length;

/** A person changes the record by hand, outside the workflow (the fake API's own PUT). */
async function changeByHand(recordId: string): Promise<void> {
  const res = await fetch(`${api.url}/records/${recordId}`, { method: 'PUT', headers: { 'content-type': 'application/json', 'if-match': '3' }, body: JSON.stringify({ fields: { status: 'archived' }, baseRevision: 3 }) });
  expect(res.status).toBe(200);
}

function expectRecovered(steps: Map<string, StepJson>, endStep: string): void {
  const end = steps.get(endStep);
  expect(end?.state).toBe('succeeded'); // an end step reached stays reached
  expect(end?.passedOver?.reason).toContain('no edge into it is taken any more');
  expect(end?.next).toMatch(/^passed over: reached in activation 1, then no edge into it is taken any more .*; it does not end the run$/);
  expect(steps.get('verify')?.state).toBe('succeeded');
  expect(steps.get('notify_intent')).toMatchObject({ state: 'succeeded' });
  expect(steps.get('notify_intent')?.passedOver).toBeUndefined();
  expect(steps.get('done')?.state).toBe('succeeded');
}

describe('recovering a run that failed through an end step', () => {
  it('retry: the API answered 500 to every write; once it is fixed, weft retry finishes the run', async () => {
    const s = session();
    mode = 'fail';
    const { runId, state } = await s.run(1);
    expect(state).toBe('failed');
    expect(applied('A17')).toBe(0);
    mode = 'pass';
    const retried = await s.act(['retry', runId, 'write', '--by', 'ops-kim', '--reason', 'the records API is fixed'], 0);
    expect(retried).toEqual({ runId, state: 'succeeded', rebill: { action: 'retry', steps: [], total: 0, upTo: 0, currency: null } });
    const steps = await s.steps(runId);
    expectRecovered(steps, 'write_failed');
    expect(applied('A17')).toBe(1);
    // The text record names what was passed over, and the log says what the retry superseded.
    const text = await s.weft(['inspect', runId]);
    expect(text.stdout).toMatch(/write_failed +succeeded, passed over/);
    const events = await s.weft(['events', runId]);
    expect(events.stdout).toContain('path_reopened');
    expect(events.stdout).toContain('superseded: write_failed (end step reached in activation 1)');
  });

  it('skip: the change was applied by hand; weft skip with the record as output finishes the run without writing', async () => {
    const s = session();
    mode = 'fail';
    const { runId } = await s.run(1);
    await changeByHand('A17');
    const skipped = await s.act(['skip', runId, 'write', '--output', JSON.stringify({ status: 200, body: { id: 'A17', revision: 4 } }), '--reason', 'applied by hand in the records console'], 0);
    expect(skipped).toEqual({ runId, state: 'succeeded' });
    expectRecovered(await s.steps(runId), 'write_failed');
    expect(applied('A17')).toBe(1); // the hand-made change only
  });

  it('resolve: the reply to the write was lost, reconcile was rejected and the run failed at unresolved; the write is found applied and resolved as succeeded', async () => {
    const s = session();
    mode = 'drop';
    const first = await s.run(3); // write unknown, verify fails, reconcile waits for a person
    expect(first.state).toBe('waiting');
    expect((await s.steps(first.runId)).get('write')?.state).toBe('unknown');
    const rejected = await s.act(['reject', first.runId, 'reconcile', '--reason', 'the record still shows open at revision 3'], 1);
    expect(rejected.state).toBe('failed');
    mode = 'pass';
    await changeByHand('A17'); // the records team applies the change
    const resolved = await s.act(['resolve', first.runId, 'write', '--as', 'succeeded', '--evidence', JSON.stringify({ status: 200, body: { id: 'A17', revision: 4 } }), '--reason', 'the records team confirms revision 4'], 0);
    expect(resolved).toEqual({ runId: first.runId, state: 'succeeded' });
    const steps = await s.steps(first.runId);
    expectRecovered(steps, 'unresolved');
    expect(steps.get('reconcile')).toMatchObject({ state: 'rejected', passedOver: { reason: expect.stringContaining('no edge into it is taken any more') } });
    expect(applied('A17')).toBe(1);
  });
});
