// EngineService on a real SQLite file, over an open engine session (the lease, the real engine
// and executors): idempotent starts by key, forks, revisions with their plan, resume, tasks and
// answers, events and their candidates. And the bad-input table: every command entry point
// refuses a malformed value with the field's JSON path, and nothing is written.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RevisePlan } from '../../shared/api/input-commands.ts';
import { EngineService, checkStart } from '../../engine/service/engine-service.ts';
import { openEngineSession, type EngineSession } from '../../engine/host/engine-host.ts';
import { ServiceError } from '../../engine/service/service-error.ts';
import { parseWorkflow } from '../engine/harness.ts';
import { storeDigest } from '../store-digest.ts';

const shipFlow = {
  format: 'weft/v1',
  id: 'ship',
  version: 1,
  name: 'Ship',
  input: { type: 'object', properties: { qty: { type: 'integer' } } },
  steps: [
    { id: 'count', kind: 'transform', config: { expression: '{"qty": input.qty}' } },
    { id: 'review', kind: 'human', config: { task: 'approve', title: 'Ship it?' }, deadlineMs: 86_400_000 },
    { id: 'arrive', kind: 'event', config: { name: 'arrived', correlationKey: '"k1"' }, deadlineMs: 86_400_000 },
    { id: 'done', kind: 'end' },
  ],
  edges: [
    { id: 'e1', from: 'count', to: 'review' },
    { id: 'e2', from: 'review', to: 'arrive' },
    { id: 'e3', from: 'arrive', to: 'done' },
  ],
};

interface Fixture {
  dir: string;
  dbPath: string;
  session: EngineSession;
  service: EngineService;
}

let open: Fixture | undefined;

async function fixture(): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-service-'));
  writeFileSync(join(dir, 'ship.weft.json'), JSON.stringify(shipFlow));
  const env = { ...process.env, WEFT_CONFIG_DIR: join(dir, 'config') };
  const dbPath = join(dir, 'weft.db');
  const session = await openEngineSession(dbPath, 'service test', 'create', env);
  open = { dir, dbPath, session, service: new EngineService(session.store, session.engine, dir, env, { actor: 'tester' }) };
  return open;
}

afterEach(async () => {
  await open?.session.close();
  open = undefined;
});

/** The store's digest, after the engine's pending writes are flushed. */
function digest(f: Fixture): string {
  f.session.engine.flush();
  return storeDigest(f.dbPath);
}

async function waitingRun(f: Fixture): Promise<string> {
  const { runId } = await f.service.startRun({ workflow: 'ship', input: { qty: 2 } });
  expect(await f.service.settled(runId)).toBe('waiting');
  return runId;
}

describe('EngineService', () => {
  it('starts a run once per key: the second start answers the first run', async () => {
    const f = await fixture();
    const first = await f.service.startRun({ workflow: 'ship', input: { qty: 1 }, key: 'order-17' });
    const again = await f.service.startRun({ workflow: 'ship', input: { qty: 1 }, key: 'order-17' });
    expect(first.created).toBe(true);
    expect(again).toMatchObject({ runId: first.runId, created: false });
    f.session.engine.flush();
    expect(f.service.reader.recentRuns(10).map((r) => r.id)).toEqual([first.runId]);
  });

  it('checks the input against the input schema before anything is stored, naming the field and no flag', async () => {
    const f = await fixture();
    const before = digest(f);
    const refused = await f.service.startRun({ workflow: 'ship', input: { qty: 'two' } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ServiceError);
    expect(refused).toMatchObject({ code: 'bad-input', path: 'input' });
    expect((refused as Error).message).toMatch(/does not match the input schema of workflow "ship": \/qty must be integer/);
    expect((refused as Error).message).not.toMatch(/--\w/);
    expect(digest(f)).toBe(before);
  });

  it('refuses a workflow with a command step from an untrusted workspace, before a store is touched', () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-service-trust-'));
    const workflow = parseWorkflow({ format: 'weft/v1', id: 'cmd', version: 1, name: 'Cmd', steps: [{ id: 'hello', kind: 'command', config: { argv: ['true'] } }, { id: 'done', kind: 'end' }], edges: [{ id: 'e1', from: 'hello', to: 'done' }] });
    const env = { WEFT_CONFIG_DIR: join(dir, 'config') };
    expect(() => checkStart(workflow, dir, {}, env)).toThrow(/runs scripts or commands \(hello\) from .*, a workspace you have not trusted; review what it runs, then trust it with: weft trust /);
  });

  it('lists the open task, takes the answer, and delivers the event to the run that waits for it', async () => {
    const f = await fixture();
    const runId = await waitingRun(f);
    expect(f.service.tasks().map((t) => [t.runId, t.stepId, t.task])).toEqual([[runId, 'review', 'approve']]);
    await f.service.decide(runId, 'review', { action: 'approve' });
    expect(await f.service.settled(runId)).toBe('waiting');
    expect(f.service.tasks()).toEqual([]);
    expect(f.service.reader.eventCandidates('arrived', 'k1')).toEqual({ candidates: [runId], receiver: runId });
    const sent = await f.service.sendEvent({ name: 'arrived', key: 'k1', id: 'ev-1' });
    expect(sent).toEqual({ id: 'ev-1', status: 'delivered', runId });
    expect(await f.service.settled(runId)).toBe('succeeded');
    const decided = f.service.reader.eventPage(runId, 0).events.find((e) => e.type === 'task_decided');
    expect(decided?.data).toMatchObject({ decision: 'approved', by: 'tester' });
  });

  it('refuses an event no run has a step for, storing nothing', async () => {
    const f = await fixture();
    await waitingRun(f);
    const before = digest(f);
    await expect(f.service.sendEvent({ name: 'nobody.listens', key: 'k' })).rejects.toMatchObject({ code: 'bad-input', path: 'name' });
    expect(digest(f)).toBe(before);
  });

  it('plans a revision without writing (dryRun), then revises', async () => {
    const f = await fixture();
    const runId = await waitingRun(f);
    const before = digest(f);
    const plan = await f.service.act(runId, { action: 'revise', input: { qty: 3 }, dryRun: true });
    const parsed = RevisePlan.parse(plan);
    expect(parsed).toMatchObject({ runId, dryRun: true, inputRevision: 2 });
    expect(parsed.plan.find((p) => p.stepId === 'count')?.action).toBe('rerun');
    expect(digest(f)).toBe(before);
    const revised = await f.service.act(runId, { action: 'revise', input: { qty: 3 } });
    expect(revised).toMatchObject({ runId, inputRevision: 2 });
    expect(await f.service.settled(runId)).toBe('waiting');
    expect(f.service.reader.fold(runId).inputRevision).toBe(2);
  });

  it('forks a run from a step: the steps before it keep their evidence', async () => {
    const f = await fixture();
    const runId = await waitingRun(f);
    const fork = await f.service.act(runId, { action: 'fork', from: 'review' });
    expect(fork.runId).not.toBe(runId);
    expect(await f.service.settled(fork.runId)).toBe('waiting');
    const types = f.service.reader.eventPage(fork.runId, 0).events.map((e) => `${e.type}${e.step === null ? '' : ` ${e.step}`}`);
    expect(types).toContain('evidence_imported count');
    expect(f.service.reader.fold(fork.runId).forkOf).toEqual({ runId, fromStep: 'review' });
  });

  it('pauses and resumes a run, and resume() answers the runs it drives', async () => {
    const f = await fixture();
    const runId = await waitingRun(f);
    expect(await f.service.act(runId, { action: 'pause', reason: 'lunch' })).toEqual({ runId, state: 'paused' });
    expect(await f.service.resume(runId.slice(0, 12), { reason: 'back' })).toEqual([runId]);
    expect(f.service.runState(runId)).toBe('waiting');
    const resumed = f.service.reader.eventPage(runId, 0).events.filter((e) => e.type === 'operator_action').map((e) => e.reason);
    expect(resumed).toEqual(['paused by tester: lunch', 'resumed by tester: back']);
  });

  it('refuses keep on a step no revision holds, changing nothing', async () => {
    const f = await fixture();
    const runId = await waitingRun(f);
    const before = digest(f);
    await expect(f.service.act(runId, { action: 'keep', step: 'review' })).rejects.toThrow(/cannot keep step "review": it is waiting, but not for a decision after a revision/);
    expect(digest(f)).toBe(before);
  });
});

describe('bad input: every command schema rejects malformed values with the field\'s path, and nothing is written', () => {
  type Call = (s: EngineService, runId: string) => Promise<unknown>;
  // One malformed value per command; the casts put values past the types, as a client might.
  const cases: [string, Call, string][] = [
    ['start run', (s) => s.startRun({ workflow: 'ship', input: { qty: Number.NaN } }), '$.input.qty'],
    ['start run (workflow id)', (s) => s.startRun({ workflow: 'Not A Slug', input: {} }), '$.workflow'],
    ['pause', (s, r) => s.act(r, { action: 'pause', by: '   ' }), '$.by'],
    ['resume', (s, r) => s.act(r, { action: 'resume', reason: '' }), '$.reason'],
    ['cancel', (s, r) => s.act(r, { action: 'cancel', when: 'now' } as never), '$.when'],
    ['retry', (s, r) => s.act(r, { action: 'retry', step: '1st' }), '$.step'],
    ['skip', (s, r) => s.act(r, { action: 'skip', step: 'review', output: {} } as never), '$.reason'],
    ['resolve', (s, r) => s.act(r, { action: 'resolve', step: 'review', as: 'maybe' } as never), '$.as'],
    ['keep', (s, r) => s.act(r, { action: 'keep' } as never), '$.step'],
    ['revise', (s, r) => s.act(r, { action: 'revise', input: { qty: Number.POSITIVE_INFINITY } }), '$.input.qty'],
    ['revise (service entry)', (s, r) => s.revise(r, { action: 'revise', input: { at: new Date() } as never }), '$.input.at'],
    ['fork', async (s, r) => s.fork(r, { action: 'fork', from: 'x'.repeat(300) }), '$.from'],
    ['unknown action', (s, r) => s.act(r, { action: 'explode' } as never), '$.action'],
    ['approve', (s, r) => s.decide(r, 'review', { action: 'approve', choice: '' }), '$.choice'],
    ['reject', (s, r) => s.decide(r, 'review', { action: 'reject' } as never), '$.reason'],
    ['reassign', (s, r) => s.decide(r, 'review', { action: 'reassign', to: ' ' }), '$.to'],
    ['send event', (s) => s.sendEvent({ name: 'arrived', key: '' }), '$.key'],
    ['send event (data)', (s) => s.sendEvent({ name: 'arrived', key: 'k1', data: { f: (() => 1) as never } }), '$.data.f'],
  ];

  it.each(cases)('%s', async (_name, call, path) => {
    const f = await fixture();
    const runId = await waitingRun(f);
    const before = digest(f);
    // fork is synchronous: its refusal is a throw, caught here like a rejection.
    const refused = await Promise.resolve()
      .then(() => call(f.service, runId))
      .then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(ServiceError);
    expect(refused).toMatchObject({ code: 'bad-input', path });
    const message = (refused as Error).message;
    expect(message).toContain(path);
    expect(message).not.toMatch(/\n/);
    expect(message).not.toMatch(/--[a-z]/);
    expect(digest(f)).toBe(before);
  });
});
