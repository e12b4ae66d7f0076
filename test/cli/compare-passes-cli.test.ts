// `weft compare` on a run that went through the graph twice (issue 19, item 8), with the
// record-update example against examples/fake-api.mjs on 127.0.0.1. Run P updates record A17.
// Someone else then moves A17 on; run A repeats P's request, so the write is answered from the
// API's idempotency record, but verify reads another status, fails, and opens a reconcile task.
// A revision of A with a stale base revision holds the write; an operator's retry sends it, the
// API refuses it with 412, and the run ends in write_failed. So reconcile ran before
// write_failed, and verify and reconcile ran in the first pass only: the second pass skipped them.
// The comparison draws A's path in the order things happened and gives a time only to the steps
// that ran, each the time of its attempts activation by activation.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunComparison } from '../../shared/api/run-comparison.ts';
import { RunDetail } from '../../shared/api/run-detail.ts';
import { REPO_ROOT, runWeft } from './run-weft.ts';

interface FakeApi {
  url: string;
  close(): Promise<void>;
}

const dir = mkdtempSync(join(tmpdir(), 'weft-cli-compare-passes-'));
const db = join(dir, 'weft.db');
const env = { WEFT_CONFIG_DIR: join(dir, 'config') };
const file = join(dir, 'record-update.weft.json');
let api: FakeApi;
let p = '';
let a = '';

const weft = (...args: string[]) => runWeft([...args, '--db', db], dir, { env });
const input = (baseRevision: number) => JSON.stringify({ apiBase: api.url, recordId: 'A17', field: 'status', value: 'archived', baseRevision, recipient: 'R2' });

beforeAll(async () => {
  const { startFakeApi } = (await import(join(REPO_ROOT, 'examples/fake-api.mjs'))) as { startFakeApi: (port: number) => Promise<FakeApi> };
  api = await startFakeApi(0);
  // The example as it is, but verify gives up after two quick reads instead of waiting 14 s.
  const workflow = JSON.parse(readFileSync(join(REPO_ROOT, 'examples/record-update.weft.json'), 'utf8')) as { steps: { id: string; retry?: unknown }[] };
  const verify = workflow.steps.find((s) => s.id === 'verify');
  if (verify === undefined) throw new Error('the record-update example has no verify step');
  verify.retry = { maxAttempts: 2, initialIntervalMs: 10, backoffCoefficient: 1, maxIntervalMs: 10 };
  writeFileSync(file, JSON.stringify(workflow));

  const first = await weft('run', file, '--input', input(3), '--json');
  expect(first.stderr).toBe('');
  p = (JSON.parse(first.stdout) as { runId: string; state: string }).runId;
  // Someone else moves A17 to on_hold at revision 5.
  const moved = await fetch(`${api.url}/records/A17`, { method: 'PUT', headers: { 'content-type': 'application/json', 'if-match': '4' }, body: JSON.stringify({ fields: { status: 'on_hold' } }) });
  expect(moved.status).toBe(200);
  const second = await weft('run', file, '--input', input(3), '--json');
  expect(JSON.parse(second.stdout)).toMatchObject({ state: 'waiting' });
  a = (JSON.parse(second.stdout) as { runId: string }).runId;
  expect((await weft('revise', a, '--input', input(9))).code).toBe(3);
  const retried = await weft('retry', a, 'write', '--reason', 'send it with the new base revision');
  expect(retried.code).toBe(1);
}, 60_000);

afterAll(async () => {
  await api?.close();
});

/** The time a step's attempts took in a run, activation by activation, from `weft inspect --json`. */
async function activationTime(runId: string, stepId: string): Promise<number> {
  const detail = RunDetail.parse(JSON.parse((await weft('inspect', runId, '--json')).stdout));
  const spans = new Map<number, { start: number; end: number }>();
  for (const t of detail.steps.find((s) => s.id === stepId)?.attempts ?? []) {
    const start = t.startedAtMs;
    const end = t.endedAtMs ?? Number.NaN;
    const span = spans.get(t.activation);
    spans.set(t.activation, span === undefined ? { start, end } : { start: Math.min(span.start, start), end: Math.max(span.end, end) });
  }
  return [...spans.values()].reduce((sum, s) => sum + s.end - s.start, 0);
}

describe('weft compare of a run that went through the graph twice', () => {
  it('--json: the path in the order things happened, and a time only for the steps that ran', async () => {
    const r = await weft('compare', p, a, '--json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const c = RunComparison.parse(JSON.parse(r.stdout));
    expect(c.route.b).toEqual(['validate', 'write', 'verify', 'reconcile', 'write_failed']);
    expect(c.route.a).toEqual(['validate', 'write', 'verify', 'notify_intent', 'done']);
    const side = (id: string) => c.steps.find((s) => s.id === id)?.b;
    // verify and reconcile ran in the first pass only; the second pass skipped them.
    expect(side('verify')).toMatchObject({ ran: true, reached: true, attempts: 2, lastAttempt: 'failed', durationMs: await activationTime(a, 'verify') });
    expect(side('reconcile')).toMatchObject({ ran: true, attempts: 1, lastAttempt: 'cancelled' });
    // validate ran once per pass: its time is its two activations', not the hours between them.
    expect(side('validate')?.durationMs).toBe(await activationTime(a, 'validate'));
    expect(side('write')?.durationMs).toBe(await activationTime(a, 'write'));
    expect(side('notify_intent')).toMatchObject({ ran: false, reached: false, durationMs: null });
    for (const s of c.steps) for (const x of [s.a, s.b]) expect([s.id, x?.durationMs !== null]).toEqual([s.id, x?.ran === true]);
  });

  it('as text: the path in the order things happened, and no step both skipped and timed', async () => {
    const r = await weft('compare', p, a);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('\nPath B: validate → write → verify → reconcile → write_failed\n');
    const rows = r.stdout.split('\n').slice(r.stdout.split('\n').indexOf('Steps:') + 2).filter((l) => l !== '');
    const row = (id: string) => rows.find((l) => l.startsWith(`  ${id} `)) ?? '';
    expect(row('verify')).toMatch(/^ {2}verify +succeeded +\d+ ms +failed then skipped +\d+ ms +outcome, output$/);
    expect(row('reconcile')).toMatch(/^ {2}reconcile +\(skipped\) +withdrawn +\d+ ms +path$/);
    expect(row('notify_intent')).toMatch(/^ {2}notify_intent +succeeded +\d+ ms +\(skipped\) +path$/);
    // A cell that says skipped (or not reached) never has a time beside it.
    for (const line of rows) expect(line).not.toMatch(/\((skipped|blocked)\) +\d+ ms|(?<!then )skipped +\d+ ms/);
  });
});
