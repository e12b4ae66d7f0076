// A run becomes a test (issue 22 part 2), with the real `weft` CLI in child processes, a real
// SQLite store and examples/fake-api.mjs (the records API) behind a proxy on 127.0.0.1 that can
// fail every PUT with 500 or drop it unanswered. A record-update run that failed becomes a
// scenario with `weft test --from-run`; the scenario passes against the workflow that ran, fails
// against a fixed draft (test/fixtures/evolution/record-update-fixed.weft.json) naming what
// differs, and passes again once its expectations say what the fix should do. Runs with a
// person's decision and with an operator's retry round-trip too. Making and running the tests
// sends no request to the API: the proxy counts every request it receives.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ScenarioFile } from '../../shared/scenario/scenario-schema.ts';
import { REPO_ROOT, runWeft, STACK_LINE, type WeftResult } from './run-weft.ts';

interface FakeApi {
  url: string;
  close: () => Promise<void>;
  requests: unknown[];
}

type Mode = 'fail' | 'drop' | 'pass';

let api: FakeApi;
let startFakeApi: (port?: number) => Promise<FakeApi>;
let proxy: Server;
let proxyUrl: string;
/** Every request the proxy received, answered by it or passed on. */
let received = 0;
let mode: Mode = 'pass';
let root: string;
/** The current test's folder: the workflow that runs, the fixed draft in fixed/, the store. */
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
    received += 1;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'PUT' && mode === 'fail') {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"internal","message":"the records store is down"}');
      } else if (req.method === 'PUT' && mode === 'drop') {
        req.socket.destroy();
      } else forward(req, res, Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  root = mkdtempSync(join(tmpdir(), 'weft-from-run-'));
});

beforeEach(async () => {
  api = await startFakeApi(0);
});
afterEach(async () => {
  await api?.close();
});
afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

let sessions = 0;
function session() {
  sessions += 1;
  dir = join(root, `s${sessions}`);
  mkdirSync(join(dir, 'fixed'), { recursive: true });
  // The example as shipped, its retry intervals shortened so the real run does not wait on backoffs.
  const wf = JSON.parse(readFileSync(join(REPO_ROOT, 'examples', 'record-update.weft.json'), 'utf8')) as { $schema?: string; steps: { id: string; retry?: Record<string, number> }[] };
  delete wf.$schema;
  for (const s of wf.steps) if (s.retry !== undefined) Object.assign(s.retry, { initialIntervalMs: 50, maxIntervalMs: 100, jitter: 0 });
  writeFileSync(join(dir, 'record-update.weft.json'), JSON.stringify(wf, null, 2));
  const fixed = JSON.parse(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'evolution', 'record-update-fixed.weft.json'), 'utf8')) as { $schema?: string };
  delete fixed.$schema;
  writeFileSync(join(dir, 'fixed', 'record-update.weft.json'), JSON.stringify(fixed, null, 2));
  const db = join(dir, 'weft.db');
  const weft = (args: readonly string[]): Promise<WeftResult> => runWeft(args, dir, { timeoutMs: 60_000, env: { WEFT_DB: db } });
  const json = async <T>(args: readonly string[], code: number): Promise<T> => {
    const r = await weft([...args, '--json']);
    if (r.code !== code) throw new Error(`weft ${args.join(' ')} exited ${r.code}, expected ${code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
    return JSON.parse(r.stdout) as T;
  };
  const input = { apiBase: proxyUrl, recordId: 'A17', field: 'status', value: 'archived', baseRevision: 3, recipient: 'R2' };
  return {
    weft,
    run: (code: number) => json<{ runId: string; state: string }>(['run', 'record-update.weft.json', '--input', JSON.stringify(input)], code),
    act: (args: readonly string[], code: number) => json<{ runId: string; state: string }>(args, code),
  };
}

const readScenarios = (file: string): ScenarioFile => ScenarioFile.parse(JSON.parse(readFileSync(join(dir, file), 'utf8')));

/** Fails with the command's output, so a wrong exit code says why. */
function expectExit(r: WeftResult, code: number): void {
  if (r.code !== code) throw new Error(`exited ${r.code}, expected ${code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
}

describe('weft test --from-run', () => {
  it('a failed run becomes a test that passes on its workflow, fails on the fixed draft showing the difference, and passes once its expectations say what the fix does', async () => {
    const s = session();
    mode = 'fail';
    const { runId, state } = await s.run(1);
    expect(state).toBe('failed');
    const before = received;
    expect(before).toBe(3); // three PUTs, each answered 500

    // Printed: one scenario of the schema, with the recorded answers and the run's end.
    const printed = await s.weft(['test', '--from-run', runId.slice(0, 10)]);
    expectExit(printed, 0);
    const file = ScenarioFile.parse(JSON.parse(printed.stdout));
    const [scenario] = file.scenarios;
    expect(file.scenarios).toHaveLength(1);
    expect(scenario?.name).toMatch(new RegExp(`^from run ${runId} \\(record-update v1, failed, \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\)$`));
    expect(scenario?.input).toEqual({ apiBase: proxyUrl, recordId: 'A17', field: 'status', value: 'archived', baseRevision: 3, recipient: 'R2' });
    expect(scenario?.steps?.write).toHaveLength(3);
    expect(scenario?.steps?.write?.[0]).toMatchObject({ fail: 'http_500', retryable: true });
    expect(scenario?.steps?.verify).toBeUndefined();
    expect(scenario?.expect).toMatchObject({
      state: 'failed',
      steps: { write: { state: 'failed', attempts: 3 }, write_failed: { state: 'succeeded' } },
      path: ['validate_to_write', 'write_failed_to_end'],
      neverRan: expect.arrayContaining(['verify', 'reconcile', 'notify_intent', 'done']),
    });

    // Written beside the workflow, where `weft test` finds it: it passes on the workflow that ran.
    const written = await s.weft(['test', '--from-run', runId, '-o', 'record-update.scenarios.json']);
    expectExit(written, 0);
    expect(written.stdout).toContain('record-update.scenarios.json: the scenario "from run');
    expect(readScenarios('record-update.scenarios.json').workflow).toBeUndefined();
    const same = await s.weft(['test', 'record-update.weft.json']);
    expectExit(same, 0);
    expect(same.stdout).toContain('1/1 scenarios passed');

    // On the fix (a failed write goes to a person), the same answers take another way: it fails, naming how.
    const onFix = await s.weft(['test', 'fixed/record-update.weft.json', 'record-update.scenarios.json']);
    expectExit(onFix, 1);
    expect(onFix.stdout).toContain('0/1 scenarios passed');
    expect(onFix.stdout).toContain('state of "write_failed": expected "succeeded", got');
    expect(onFix.stdout).toContain('edge "write_failed_to_end" taken: expected true, got false');
    expect(onFix.stdout).toContain('step "reconcile" never ran: expected 0, got 1');
    expect(onFix.stdout).toMatch(/the run took validate_to_write > write_error_to_reconcile > reconcile_rejected and ended failed/);

    // Its expectations edited to what the fix should do: the write's failure waits for a person
    // (nobody answers in the test, so the task expires a day later and the run ends unresolved).
    const edited = readScenarios('record-update.scenarios.json');
    const x = edited.scenarios[0]?.expect;
    if (x === undefined) throw new Error('no scenario');
    x.path = ['validate_to_write', 'write_error_to_reconcile', 'reconcile_rejected'];
    x.steps = { write: { state: 'failed', attempts: 3 }, reconcile: { state: 'failed', outcome: 'expired' }, unresolved: { state: 'succeeded' } };
    x.neverRan = ['verify', 'notify_intent', 'done', 'write_failed'];
    writeFileSync(join(dir, 'fixed', 'record-update.scenarios.json'), JSON.stringify(edited, null, 2));
    const fixedPasses = await s.weft(['test', 'fixed/record-update.weft.json']);
    expectExit(fixedPasses, 0);
    expect(fixedPasses.stdout).toContain('1/1 scenarios passed');

    // Nothing of this reached the records API.
    expect(received).toBe(before);
  });

  it("a run a person decided: the rejection comes at its offset and the test passes on the run's workflow", async () => {
    const s = session();
    mode = 'drop'; // the write is received and never answered: unknown; verify finds the record unchanged
    const first = await s.run(3);
    expect(first.state).toBe('waiting');
    const rejected = await s.act(['reject', first.runId, 'reconcile', '--reason', 'the record still shows open', '--by', 'ops-kim'], 1);
    expect(rejected.state).toBe('failed');
    const before = received;
    mkdirSync(join(dir, 'record-update.scenarios'), { recursive: true });
    const out = `record-update.scenarios/from-run-${first.runId}.json`;
    expectExit(await s.weft(['test', '--from-run', first.runId, '-o', out]), 0);
    const [scenario] = readScenarios(out).scenarios;
    expect(scenario?.decisions).toEqual([{ step: 'reconcile', atMs: expect.any(Number), decision: 'reject', reason: 'the record still shows open', by: 'ops-kim' }]);
    expect(scenario?.steps?.write).toEqual([{ unknown: expect.any(String), ...(scenario?.steps?.write?.[0] !== undefined && 'takeMs' in scenario.steps.write[0] ? { takeMs: expect.any(Number) } : {}) }]);
    expect(scenario?.steps?.verify).toHaveLength(4);
    expect(scenario?.expect).toMatchObject({ state: 'failed', steps: { write: { state: 'unknown' }, verify: { state: 'failed', attempts: 4 }, reconcile: { state: 'rejected' } } });
    const r = await s.weft(['test', 'record-update.weft.json']);
    expectExit(r, 0);
    expect(r.stdout).toContain('1/1 scenarios passed');
    expect(received).toBe(before);
  });

  it("a run an operator retried: the retry comes at its offset, the write's fourth call gets the answer that succeeded", async () => {
    const s = session();
    mode = 'fail';
    const { runId } = await s.run(1);
    mode = 'pass';
    const retried = await s.act(['retry', runId, 'write', '--by', 'ops-kim', '--reason', 'the records API is fixed'], 0);
    expect(retried.state).toBe('succeeded');
    const before = received;
    const printed = await s.weft(['test', '--from-run', runId]);
    expectExit(printed, 0);
    const [scenario] = ScenarioFile.parse(JSON.parse(printed.stdout)).scenarios;
    expect(scenario?.operator).toEqual([{ atMs: expect.any(Number), action: 'retry', step: 'write', by: 'ops-kim', reason: 'the records API is fixed' }]);
    expect(scenario?.steps?.write?.map((o) => Object.keys(o)[0])).toEqual(['fail', 'fail', 'fail', 'succeed']);
    expect(scenario?.expect).toMatchObject({ state: 'succeeded', steps: { write: { state: 'succeeded', attempts: 4 }, write_failed: { passedOver: true }, done: { state: 'succeeded' } } });
    writeFileSync(join(dir, 'record-update.scenarios.json'), printed.stdout);
    const r = await s.weft(['test', 'record-update.weft.json']);
    expectExit(r, 0);
    expect(r.stdout).toContain('1/1 scenarios passed');
    expect(received).toBe(before);

    // -o on a scenarios file of the same workflow adds the scenario to it, once.
    const again = await s.weft(['test', '--from-run', runId, '-o', 'record-update.scenarios.json']);
    expectExit(again, 2);
    expect(again.stderr).toContain(`record-update.scenarios.json already holds the scenario "from run ${runId}`);
    mode = 'fail';
    const second = await s.run(1);
    const added = await s.weft(['test', '--from-run', second.runId, '-o', 'record-update.scenarios.json']);
    expectExit(added, 0);
    expect(added.stdout).toContain('(2 scenarios)');
    expect(readScenarios('record-update.scenarios.json').scenarios.map((x) => x.expect.state)).toEqual(['succeeded', 'failed']);
    const both = await s.weft(['test', 'record-update.weft.json']);
    expectExit(both, 0);
    expect(both.stdout).toContain('2/2 scenarios passed');
  });

  it('refuses an unknown run, a run still going, and a file it must not overwrite, with exit 2 and a clear message', async () => {
    const s = session();
    mode = 'drop';
    const waiting = await s.run(3);
    const unknown = await s.weft(['test', '--from-run', 'no-such-run']);
    expectExit(unknown, 2);
    expect(unknown.stderr).toMatch(/^weft test: .*no-such-run/);
    expect(unknown.stderr).not.toContain(STACK_LINE);
    expect(unknown.stdout).toBe('');

    const going = await s.weft(['test', '--from-run', waiting.runId]);
    expectExit(going, 2);
    expect(going.stderr).toContain(`weft test: run ${waiting.runId} is waiting: a test is made from a run that has ended`);
    expect(going.stderr).toContain(`weft cancel ${waiting.runId}`);

    // An existing file that is not a scenarios file of this workflow is left as it was.
    await s.act(['cancel', waiting.runId, '--reason', 'test'], 1);
    writeFileSync(join(dir, 'notes.json'), '{"mine": true}\n');
    const notScenarios = await s.weft(['test', '--from-run', waiting.runId, '-o', 'notes.json']);
    expectExit(notScenarios, 2);
    expect(notScenarios.stderr).toContain('notes.json exists and is not a scenarios file');
    expect(readFileSync(join(dir, 'notes.json'), 'utf8')).toBe('{"mine": true}\n');
    const usage = await s.weft(['test', '--from-run', waiting.runId, 'record-update.weft.json']);
    expectExit(usage, 2);
    expect(usage.stderr).toContain('--from-run makes a scenario from a run; give no files with it');
  });
});
