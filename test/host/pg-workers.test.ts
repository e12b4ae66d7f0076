// Several engines on one PostgreSQL store, in one process (issue 25; the process-level torture and
// SIGSTOP fencing tests are test/host/pg-torture.test.ts): a run started by an intake engine
// (`weft serve --no-worker`) is claimed and finished by a worker; a run another live engine drives
// is refused to a third, naming it; an engine whose lease was taken over writes nothing more for
// the run (its commit fails with WF001, and the engine stops), while the new owner finishes it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngineSession, type EngineSession } from '../../engine/host/engine-host.ts';
import type { SharedOptions } from '../../engine/host/engine-host.ts';
import { openPgDb } from '../../engine/store/pg/open-pg-store.ts';
import { failWithoutPgUnderCi, openTestPg, pgMissing, SKIP_PG, type TestPg } from '../fixtures/pg/test-pg.ts';
import { waitUntil } from '../wait-until.ts';

failWithoutPgUnderCi();

const approve = {
  format: 'weft/v1',
  id: 'approve',
  version: 1,
  name: 'Approve',
  steps: [
    { id: 'ask', kind: 'human', config: { task: 'approve', title: 'Go?' }, deadlineMs: 86_400_000 },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'e1', from: 'ask', to: 'done' }],
};

const arrive = {
  format: 'weft/v1',
  id: 'arrive',
  version: 1,
  name: 'Arrive',
  steps: [
    { id: 'wait', kind: 'event', config: { name: 'arrived', correlationKey: '"k1"' }, deadlineMs: 86_400_000 },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'e1', from: 'wait', to: 'done' }],
};

const pause = {
  format: 'weft/v1',
  id: 'pause',
  version: 1,
  name: 'Pause',
  steps: [
    { id: 'wait', kind: 'wait', config: { durationMs: 30 } },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'e1', from: 'wait', to: 'done' }],
};

describe.skipIf(SKIP_PG)(SKIP_PG ? `skipped: ${pgMissing() ?? ''}` : 'engines sharing a PostgreSQL store', () => {
  let pg: TestPg;
  const dir = mkdtempSync(join(tmpdir(), 'weft-pg-workers-'));
  const env = { ...process.env, WEFT_CONFIG_DIR: join(dir, 'config'), WEFT_ARTIFACTS_DIR: join(dir, 'artifacts') };
  const sessions: EngineSession[] = [];
  writeFileSync(join(dir, 'approve.weft.json'), JSON.stringify(approve));
  writeFileSync(join(dir, 'pause.weft.json'), JSON.stringify(pause));
  writeFileSync(join(dir, 'arrive.weft.json'), JSON.stringify(arrive));

  beforeAll(async () => {
    pg = await openTestPg();
  });
  afterAll(async () => {
    for (const s of sessions) await s.close().catch(() => undefined);
    await pg.close();
  });

  async function open(url: string, shared: SharedOptions, onFatal?: (e: unknown) => void): Promise<EngineSession> {
    const s = await openEngineSession(url, 'test', 'create', env, { shared, ...(onFatal === undefined ? {} : { onFatal }) });
    sessions.push(s);
    return s;
  }

  it('a run an intake engine starts is claimed and finished by a worker', async () => {
    const schema = (await pg.newSchema()).name;
    const url = `${pg.url}?schema=${schema}`;
    const intake = await open(url, { role: 'serve', intake: true, ttlMs: 30_000 });
    const worker = await open(url, { role: 'worker', claim: true, ttlMs: 30_000 });
    const { runId } = await intake.service({ workspace: dir }).startRun({ workflow: 'pause', input: {} });
    await waitUntil(() => intake.store.getRun(runId)?.state === 'succeeded', 'the worker finishes the run');
    expect(leases(pg.url, schema)[runId]).toBe(worker.shared?.workerId);
    const types = intake.store.readEvents(runId).map((e) => e.type);
    expect(types.filter((t) => t === 'run_created')).toHaveLength(1);
    expect(types.at(-1)).toBe('run_state_changed');
    expect(intake.shared?.workers().map((w) => w.role).sort()).toEqual(['serve', 'worker']);
  });

  it('a worker gives back a run that waits on a person; the intake acts on it, and a worker finishes it', async () => {
    const schema = (await pg.newSchema()).name;
    const url = `${pg.url}?schema=${schema}`;
    const intake = await open(url, { role: 'serve', intake: true, ttlMs: 30_000 });
    await open(url, { role: 'worker', claim: true, ttlMs: 30_000 });
    const service = intake.service({ workspace: dir });
    const { runId } = await service.startRun({ workflow: 'approve', input: {} });
    await waitUntil(() => intake.store.getRun(runId)?.state === 'waiting' && leases(pg.url, schema)[runId] === null, 'the worker gives the waiting run back');
    await service.decide(runId, 'ask', { action: 'approve', by: 'ana' });
    await waitUntil(() => intake.store.getRun(runId)?.state === 'succeeded', 'a worker finishes the approved run');
    const decided = intake.store.readEvents(runId).filter((e) => e.type === 'task_decided');
    expect(decided).toHaveLength(1);
  });

  it('an event sent from another engine reaches a run a live engine holds: stored there, delivered by the holder', async () => {
    const schema = (await pg.newSchema()).name;
    const url = `${pg.url}?schema=${schema}`;
    const a = await open(url, { role: 'worker', ttlMs: 60_000 });
    const b = await open(url, { role: 'command', ttlMs: 60_000 });
    const { runId } = await a.service({ workspace: dir }).startRun({ workflow: 'arrive', input: {} });
    expect(await a.engine.settled(runId)).toBe('waiting');
    const sent = await b.service({ workspace: dir }).sendEvent({ name: 'arrived', key: 'k1', data: { n: 1 } });
    expect(sent.status).toBe('kept');
    await waitUntil(() => a.store.getRun(runId)?.state === 'succeeded', 'the holder, poked, delivers the event');
    expect(a.store.readEvents(runId).filter((e) => e.type === 'event_received')).toHaveLength(1);
  });

  it('refuses to act on a run another live engine drives, naming it', async () => {
    const schema = (await pg.newSchema()).name;
    const url = `${pg.url}?schema=${schema}`;
    const a = await open(url, { role: 'worker', ttlMs: 60_000 });
    const b = await open(url, { role: 'command', ttlMs: 60_000 });
    const { runId } = await a.service({ workspace: dir }).startRun({ workflow: 'approve', input: {} });
    expect(await a.engine.settled(runId)).toBe('waiting');
    await expect(b.service({ workspace: dir }).decide(runId, 'ask', { action: 'approve', by: 'ana' })).rejects.toThrow(/being driven by a weft worker \(process \d+ on /);
    expect(a.store.readEvents(runId).some((e) => e.type === 'task_decided')).toBe(false);
  });

  it('recover (weft resume) on a shared store continues the free runs and leaves those another live engine drives', async () => {
    const schema = (await pg.newSchema()).name;
    const url = `${pg.url}?schema=${schema}`;
    const a = await open(url, { role: 'worker', ttlMs: 60_000 });
    const held = (await a.service({ workspace: dir }).startRun({ workflow: 'approve', input: {} })).runId;
    expect(await a.engine.settled(held)).toBe('waiting');
    const b = await openEngineSession(url, 'test', 'create', env, { shared: { role: 'command', ttlMs: 60_000 } });
    const free = (await b.service({ workspace: dir }).startRun({ workflow: 'approve', input: {} })).runId;
    expect(await b.engine.settled(free)).toBe('waiting');
    await b.close(); // a command gives its runs back as it exits
    const c = await open(url, { role: 'command', ttlMs: 60_000 });
    expect(c.engine.recover()).toEqual({ runs: 1, interrupted: 0 });
    expect(c.engine.model(free)?.state).toBe('waiting');
    expect(c.engine.model(held)).toBeUndefined();
    expect(leases(pg.url, schema)).toEqual({ [held]: a.shared?.workerId, [free]: c.shared?.workerId });
  });

  it('an engine whose run was taken over writes nothing more for it, and the new owner finishes it', async () => {
    const schema = (await pg.newSchema()).name;
    const url = `${pg.url}?schema=${schema}`;
    let aStopped: unknown;
    // A's heartbeat runs every 15 s: within this test it never beats, as if the process were stopped.
    const a = await open(url, { role: 'worker', ttlMs: 60_000 }, (e) => (aStopped = e));
    const { runId } = await a.service({ workspace: dir }).startRun({ workflow: 'approve', input: {} });
    expect(await a.engine.settled(runId)).toBe('waiting');
    const before = a.store.readEvents(runId).length;
    // A is dead in the others' eyes (its heartbeat is old): B claims the run.
    const admin = openPgDb(pg.url, { schema, create: false });
    admin.prepare('UPDATE weft_workers SET heartbeat_at = 0 WHERE id = ?').run(a.shared?.workerId ?? '');
    admin.close();
    const b = await open(url, { role: 'worker', claim: true, ttlMs: 60_000 });
    // B claims the run (a second claim of it), and, as it only waits on a person, may give it back at once: either way not A's.
    await waitUntil(() => claimsOf(pg.url, schema, runId) === 2 && leases(pg.url, schema)[runId] !== a.shared?.workerId, 'B claims the run');
    // A still holds the run in memory and acts on it: its commit is fenced off.
    await expect(a.service({ workspace: dir }).decide(runId, 'ask', { action: 'approve', by: 'anna-at-a' })).rejects.toThrow(/no longer holds run\(s\) /);
    expect(String(aStopped)).toMatch(/no longer holds run/);
    expect(a.store.readEvents(runId).length).toBeGreaterThanOrEqual(before);
    expect(b.store.readEvents(runId).some((e) => e.type === 'task_decided')).toBe(false);
    // B acts: the run ends, under B.
    await b.service({ workspace: dir }).decide(runId, 'ask', { action: 'approve', by: 'bea-at-b' });
    expect(await b.engine.settled(runId)).toBe('succeeded');
    const decided = b.store.readEvents(runId).filter((e) => e.type === 'task_decided');
    expect(decided.map((e) => JSON.stringify(e.data))).toEqual([expect.stringContaining('bea-at-b')]);
  });
});

describe.skipIf(SKIP_PG)(SKIP_PG ? `skipped: ${pgMissing() ?? ''}` : 'limits.concurrency across engines sharing a PostgreSQL store', () => {
  let pg: TestPg;
  let server: Server;
  let base = '';
  let inFlight = 0;
  let most = 0;
  let served = 0;
  const dir = mkdtempSync(join(tmpdir(), 'weft-pg-limits-'));
  const env = { ...process.env, WEFT_CONFIG_DIR: join(dir, 'config'), WEFT_ARTIFACTS_DIR: join(dir, 'artifacts') };
  const sessions: EngineSession[] = [];

  beforeAll(async () => {
    pg = await openTestPg();
    server = createServer((req, res) => {
      inFlight++;
      most = Math.max(most, inFlight);
      // Held a while, so that attempts overlap whenever the engines let them.
      setTimeout(() => {
        inFlight--;
        served++;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      }, 40);
      req.resume();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    writeFileSync(join(dir, 'limited.weft.json'), JSON.stringify({
      format: 'weft/v1',
      id: 'limited',
      version: 1,
      name: 'Limited',
      limits: { concurrency: { api: 3 } },
      steps: [
        { id: 'call', kind: 'http', resource: 'api', config: { method: 'GET', url: `${base}/call` } },
        { id: 'done', kind: 'end' },
      ],
      edges: [{ id: 'e1', from: 'call', to: 'done' }],
    }));
  });
  afterAll(async () => {
    for (const s of sessions) await s.close().catch(() => undefined);
    await new Promise((r) => server.close(r));
    await pg.close();
  });

  it('a limit of 3 on a resource holds across 3 workers with 30 runs, and every run succeeds', async () => {
    const schema = (await pg.newSchema()).name;
    const url = `${pg.url}?schema=${schema}`;
    const intake = await openEngineSession(url, 'test', 'create', env, { shared: { role: 'serve', intake: true, ttlMs: 30_000 } });
    sessions.push(intake);
    for (let k = 0; k < 3; k++) sessions.push(await openEngineSession(url, 'test', 'create', env, { shared: { role: 'worker', claim: true, ttlMs: 30_000 } }));
    const service = intake.service({ workspace: dir });
    const ids: string[] = [];
    for (let k = 0; k < 30; k++) ids.push((await service.startRun({ workflow: 'limited', input: {} })).runId);
    await waitUntil(() => ids.every((id) => intake.store.getRun(id)?.state === 'succeeded'), 'all 30 runs succeed');
    expect(served).toBe(30);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(3);
    // The log agrees: in commit order, never more than 3 attempts of the resource started and not ended.
    let open = 0;
    let peak = 0;
    for (const e of intake.store.readEventsAfter(0)) {
      if (e.event.step !== 'call') continue;
      if (e.event.type === 'attempt_started') peak = Math.max(peak, ++open);
      if (e.event.type === 'attempt_succeeded' || e.event.type === 'attempt_failed') open--;
    }
    expect(peak).toBeLessThanOrEqual(3);
    const owners = new Set(Object.values(leases(pg.url, schema)));
    expect(owners.size).toBeGreaterThan(1);
  });
});

/** The store's run_leases: each run's owner (null: free) and how many times it was claimed. */
function leaseRows(url: string, schema: string): Record<string, { owner: string | null; claims: number }> {
  const db = openPgDb(url.replace(/\?.*$/, ''), { schema, create: false });
  try {
    const rows = db.prepare('SELECT run_id, owner, claims FROM run_leases ORDER BY run_id').all() as { run_id: string; owner: string | null; claims: number }[];
    return Object.fromEntries(rows.map((r) => [r.run_id, { owner: r.owner, claims: Number(r.claims) }]));
  } finally {
    db.close();
  }
}

/** Each run's lease owner (null: free). */
function leases(url: string, schema: string): Record<string, string | null> {
  return Object.fromEntries(Object.entries(leaseRows(url, schema)).map(([id, l]) => [id, l.owner]));
}

/** How many times the run was claimed. */
function claimsOf(url: string, schema: string, runId: string): number {
  return leaseRows(url, schema)[runId]?.claims ?? 0;
}
