// `weft bulk` on a real store with the real engine: runs of a workflow whose http step calls a
// counting server on 127.0.0.1. A run the action does not fit sits in the middle of the selection
// and is refused with its reason while the runs after it are still acted on; a dry run writes
// nothing; a retry sends exactly one new request per retried run and none for the refused one.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BulkResult } from '../../shared/api/bulk-action.ts';
import { storeDigest } from '../store-digest.ts';
import { weftInProcess } from './capture-io.ts';
import { runWeft } from './run-weft.ts';
import { startServe } from './serve-child.ts';

/** How the server answers each record id: 500, a dropped request (its outcome unknown), or 200. */
const answers = new Map<string, 'fail' | 'drop' | 'ok'>();
const received: string[] = [];
let server: Server;
let base: string;
let dir: string;
let db: string;
let file: string;
let waitFile: string;

/** bulk-call fails on a 500; bulk-wait escalates an unknown (or failed) call to a person instead. */
const workflow = (apiBase: string, id: 'bulk-call' | 'bulk-wait') => ({
  format: 'weft/v1',
  id,
  version: 1,
  name: 'one call per record',
  input: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
  steps: [
    { id: 'call', kind: 'http', config: { method: 'POST', url: `${apiBase}/call/{{ input.id }}`, body: 'input', expectStatus: [200] }, ...(id === 'bulk-wait' ? { effect: 'external', onExhausted: 'escalate' } : {}) },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'e', from: 'call', to: 'done' }],
});

const calls = (id: string): number => received.filter((r) => r === id).length;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = (req.url ?? '').split('/').pop() ?? '';
      received.push(id);
      const how = answers.get(id) ?? 'ok';
      if (how === 'drop') req.socket.destroy();
      else if (how === 'fail') res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"down"}');
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id, saved: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'weft-bulk-'));
  db = join(dir, 'weft.db');
  file = join(dir, 'bulk-call.weft.json');
  writeFileSync(file, JSON.stringify(workflow(base, 'bulk-call')));
  waitFile = join(dir, 'bulk-wait.weft.json');
  writeFileSync(waitFile, JSON.stringify(workflow(base, 'bulk-wait')));
  answers.clear();
  received.length = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Starts a run for record `id`, answered as `how`; each run is created at a later millisecond than the one before (the selection is newest first). */
async function start(id: string, how: 'fail' | 'drop' | 'ok', definition = file): Promise<string> {
  answers.set(id, how);
  const t = Date.now();
  while (Date.now() === t) {
    // a later creation time than the run before, so the order of the selection is known
  }
  const r = await weftInProcess(['run', definition, '--input', JSON.stringify({ id }), '--db', db, '--json'], dir);
  if (r.stdout === "") throw new Error(`weft run: ${r.stderr}`);
  const { runId } = JSON.parse(r.stdout) as { runId: string };
  return runId;
}

const bulk = async (args: string[]) => {
  const r = await weftInProcess(['bulk', ...args, '--db', db, '--json'], dir);
  return { code: r.code, stderr: r.stderr, result: r.stdout === '' ? undefined : BulkResult.parse(JSON.parse(r.stdout)) };
};

const stateOf = async (runId: string): Promise<string> => {
  const r = await weftInProcess(['runs', '--db', db, '--json'], dir);
  return (JSON.parse(r.stdout) as { runs: { id: string; state: string }[] }).runs.find((x) => x.id === runId)?.state ?? 'missing';
};

describe('weft bulk retry', () => {
  it('retries the failed runs a filter selects, refuses the succeeded one in the middle, and sends one request per retried run (real CLI)', async () => {
    const a = await start('a', 'fail');
    const b = await start('b', 'ok');
    const c = await start('c', 'fail');
    expect([calls('a'), calls('b'), calls('c')]).toEqual([1, 1, 1]);
    answers.set('a', 'ok');
    answers.set('c', 'ok');

    const r = await runWeft(['bulk', 'retry', '--filter', 'workflow=bulk-call', '--reason', 'the API is back', '--db', db], dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split('\n');
    // Newest first: c, then b (refused), then a, which is still retried after the refusal.
    expect(lines[0]).toBe(`[1/3] ${c}  bulk-call v1  done     retry step "call" -> succeeded`);
    expect(lines[1]).toMatch(new RegExp(`^\\[2/3\\] ${b} {2}bulk-call v1 {2}refused {2}cannot retry run ${b}: it is succeeded \\(retry works on`));
    expect(lines[2]).toMatch(new RegExp(`^\\[3/3\\] ${a} .*done .*-> succeeded$`));
    expect(lines[3]).toBe('3 runs: 2 done, 1 refused');
    expect([calls('a'), calls('b'), calls('c')]).toEqual([2, 1, 2]);
    expect(await stateOf(a)).toBe('succeeded');
    expect(await stateOf(c)).toBe('succeeded');
  });

  it('--dry-run says what each run would do and writes nothing; --json rows name each refusal', async () => {
    const a = await start('a', 'fail');
    const b = await start('b', 'ok');
    const c = await start('c', 'fail');
    const before = storeDigest(db);
    const dry = await bulk(['retry', '--workflow', 'bulk-call', '--dry-run']);
    expect(storeDigest(db)).toBe(before);
    expect(dry.code).toBe(1);
    expect(dry.result?.dryRun).toBe(true);
    expect(dry.result?.rows.map((r) => [r.runId, r.status, r.what ?? r.reason?.slice(0, 42)])).toEqual([
      [c, 'would', 'retry step "call"'],
      [b, 'refused', `cannot retry run ${b}: it is succeeded`.slice(0, 42)],
      [a, 'would', 'retry step "call"'],
    ]);
    expect(dry.result?.counts).toEqual({ selected: 3, would: 2, done: 0, refused: 1 });
    expect([calls('a'), calls('b'), calls('c')]).toEqual([1, 1, 1]);
    // Each filter field narrows the selection; an empty one acts on nothing and exits 0.
    expect((await bulk(['retry', '--filter', 'workflow=bulk-call,version=2', '--dry-run'])).result?.counts.selected).toBe(0);
    expect((await bulk(['retry', '--workflow', 'bulk-call', '--created-before', '2000-01-01', '--dry-run'])).result?.counts.selected).toBe(0);
    expect((await bulk(['retry', '--workflow', 'bulk-call', '--failing-step', 'done', '--dry-run'])).code).toBe(0);
    expect((await bulk(['retry', '--workflow', 'bulk-call', '--state', 'failed', '--dry-run'])).result?.rows.map((r) => r.runId)).toEqual([c, a]);
    expect((await bulk(['retry', b, '--dry-run'])).result?.rows.map((r) => r.status)).toEqual(['refused']);

    // Only the failed ones, by state: all are acted on, exit 0.
    answers.set('a', 'ok');
    const only = await bulk(['retry', '--workflow', 'bulk-call', '--state', 'failed', '--failing-step', 'call', '--limit', '1']);
    expect(only.code).toBe(0);
    expect(only.result?.rows.map((r) => [r.runId, r.status, r.state])).toEqual([[c, 'done', 'failed']]);
    expect([calls('a'), calls('c')]).toEqual([1, 2]);
  });
});

describe('weft bulk while a weft serve owns the store', () => {
  it('is carried out by the server, run by run, with the same lines, refusals and exit code (real CLI and server)', async () => {
    const a = await start('a', 'fail');
    const b = await start('b', 'ok');
    const c = await start('c', 'fail');
    answers.set('a', 'ok');
    answers.set('c', 'ok');
    // A lease wait of 0: were the command to open the store itself, it would fail at once, not wait.
    const server = await startServe(['--workspace', dir, '--db', db, '--port', '0'], dir, { WEFT_DB: undefined, WEFT_LEASE_WAIT_MS: undefined });
    try {
      const r = await runWeft(['bulk', 'retry', '--workflow', 'bulk-call', '--db', db], dir, { env: { WEFT_LEASE_WAIT_MS: '0' } });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(1);
      const lines = r.stdout.trim().split('\n');
      expect(lines[0]).toBe(`[1/3] ${c}  bulk-call v1  done     retry step "call" -> succeeded`);
      expect(lines[1]).toMatch(new RegExp(`^\\[2/3\\] ${b} {2}bulk-call v1 {2}refused {2}cannot retry run ${b}: it is succeeded`));
      expect(lines[2]).toBe(`[3/3] ${a}  bulk-call v1  done     retry step "call" -> succeeded`);
      expect(lines[3]).toBe('3 runs: 2 done, 1 refused');
      expect([calls('a'), calls('b'), calls('c')]).toEqual([2, 1, 2]);
    } finally {
      await server.stop();
    }
  });
});

describe('weft bulk resolve and cancel', () => {
  it('resolves the unknown step of each run waiting on a person, refusing the finished run between them', async () => {
    const a = await start('a', 'drop', waitFile);
    const b = await start('b', 'ok', waitFile);
    const c = await start('c', 'drop', waitFile);
    expect(await stateOf(a)).toBe('needs_attention');
    const r = await bulk(['resolve', c, b, a, '--as', 'succeeded', '--evidence', '{"id":"x","saved":true}']);
    expect(r.code).toBe(1);
    expect(r.result?.rows.map((x) => [x.runId, x.status, x.state])).toEqual([
      [c, 'done', 'succeeded'],
      [b, 'refused', 'succeeded'],
      [a, 'done', 'succeeded'],
    ]);
    expect(r.result?.rows[1]?.reason).toMatch(/cannot resolve run .*: it is succeeded/);
    // Resolving records what a person found out: nothing is sent again.
    expect([calls('a'), calls('b'), calls('c')]).toEqual([1, 1, 1]);
  });

  it('cancels the runs that can be, and names the finished one the engine refuses', async () => {
    const a = await start('a', 'drop', waitFile);
    const b = await start('b', 'ok', waitFile);
    const c = await start('c', 'drop', waitFile);
    const r = await bulk(['cancel', '--workflow', 'bulk-wait', '--created-after', '2000-01-01']);
    expect(r.code).toBe(1);
    expect(r.result?.rows.map((x) => [x.runId, x.status, x.state])).toEqual([
      [c, 'done', 'cancelled'],
      [b, 'refused', 'succeeded'],
      [a, 'done', 'cancelled'],
    ]);
    expect(r.result?.rows[1]?.reason).toMatch(/cannot cancel run .*: it is succeeded/);
    expect(await stateOf(a)).toBe('cancelled');
  });

  it('refuses bad usage with exit 2 and writes nothing', async () => {
    await start('a', 'fail');
    const before = storeDigest(db);
    const unknown = await weftInProcess(['bulk', 'explode', '--workflow', 'bulk-call', '--db', db], dir);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown action "explode"; the actions are retry, resolve, cancel/);
    const badState = await weftInProcess(['bulk', 'cancel', '--filter', 'state=sleeping', '--db', db], dir);
    expect(badState.code).toBe(2);
    expect(badState.stderr).toMatch(/filter\.state/);
    const badKey = await weftInProcess(['bulk', 'cancel', '--filter', 'colour=red', '--db', db], dir);
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toMatch(/unknown key "colour"/);
    const none = await weftInProcess(['bulk', 'cancel', '--db', db], dir);
    expect(none.code).toBe(2);
    expect(storeDigest(db)).toBe(before);
  });
});

describe('weft bulk replay and migrate', () => {
  /** Version 2 of a workflow, stored by a run of it: `extra` adds steps and edges to version 1. */
  async function storeVersion2(id: 'bulk-call' | 'bulk-wait', extra: { steps: object[]; edges: object[]; drop?: string }): Promise<string> {
    const v1 = workflow(base, id);
    const v2 = { ...v1, version: 2, steps: [...v1.steps, ...extra.steps], edges: [...v1.edges.filter((e) => e.id !== extra.drop), ...extra.edges] };
    const v2File = join(dir, `${id}-v2.weft.json`);
    writeFileSync(v2File, JSON.stringify(v2));
    return start(`${id}-v2`, 'ok', v2File);
  }

  it('replays each run on version 2 from its recordings (no request), naming the verdicts, and refuses a replay in the middle', async () => {
    const a = await start('a', 'fail');
    const b = await start('b', 'ok');
    // Version 2 handles a failed call: a fallback step, then done.
    await storeVersion2('bulk-call', {
      steps: [{ id: 'fallback', kind: 'transform', config: { expression: '{"queued": true}' } }],
      edges: [{ id: 'f', from: 'call', to: 'fallback', on: 'failed' }, { id: 'g', from: 'fallback', to: 'done' }],
    });
    const sent = received.length;
    const earlier = await weftInProcess(['replay', b, '--against', 'bulk-call@2', '--db', db, '--json'], dir);
    expect(earlier.code, earlier.stderr).toBe(0);
    const replayId = (JSON.parse(earlier.stdout) as { replayRunId: string }).replayRunId;

    const r = await bulk(['replay', a, replayId, b, '--on', '2']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.result?.rows.map((x) => [x.runId, x.status, x.replay?.verdict])).toEqual([
      [a, 'done', 'fixed'],
      [replayId, 'refused', undefined],
      [b, 'done', 'same'],
    ]);
    expect(r.result?.rows[1]?.reason).toMatch(/is itself a replay/);
    expect(r.result?.rows[0]?.what).toBe('replayed on v2: fixed');
    // A replay calls nothing and changes no run.
    expect(received.length).toBe(sent);
    expect(await stateOf(a)).toBe('failed');
    // A version the store does not keep is refused per run, with what to do.
    const missing = await bulk(['replay', a, '--on', '7']);
    expect(missing.result?.rows[0]?.reason).toMatch(/has no version 7/);
  });

  it('moves the unfinished runs to version 2, refuses the finished one between them, and the moved runs finish on it', async () => {
    const a = await start('a', 'drop', waitFile);
    const b = await start('b', 'ok', waitFile);
    const c = await start('c', 'drop', waitFile);
    expect(await stateOf(a)).toBe('needs_attention');
    // Version 2 records a note after the call.
    await storeVersion2('bulk-wait', {
      steps: [{ id: 'note', kind: 'transform', config: { expression: '{"noted": true}' } }],
      edges: [{ id: 'n1', from: 'call', to: 'note' }, { id: 'n2', from: 'note', to: 'done' }],
      drop: 'e',
    });
    const dry = await bulk(['migrate', c, b, a, '--to', '2', '--dry-run']);
    expect(dry.result?.rows.map((x) => [x.runId, x.status])).toEqual([[c, 'would'], [b, 'refused'], [a, 'would']]);
    const r = await bulk(['migrate', c, b, a, '--to', '2', '--reason', 'note every call']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.result?.rows.map((x) => [x.runId, x.status, x.version])).toEqual([
      [c, 'done', 1],
      [b, 'refused', 1],
      [a, 'done', 1],
    ]);
    expect(r.result?.rows[1]?.reason).toMatch(/has ended \(succeeded\)/);
    const resolved = await bulk(['resolve', a, c, '--as', 'succeeded', '--evidence', '{"id":"x","saved":true}']);
    expect(resolved.result?.rows.map((x) => [x.status, x.state])).toEqual([['done', 'succeeded'], ['done', 'succeeded']]);
    const inspected = JSON.parse((await weftInProcess(['inspect', a, '--db', db, '--json'], dir)).stdout) as { run: { version: number }; steps: { id: string; state: string }[] };
    expect(inspected.run.version).toBe(2);
    expect(inspected.steps.find((s) => s.id === 'note')?.state).toBe('succeeded');
    // Nothing was sent again: one call per run.
    expect([calls('a'), calls('b'), calls('c')]).toEqual([1, 1, 1]);
  });
});
