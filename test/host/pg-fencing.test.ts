// Fencing across processes (issue 25): a `weft worker` stopped (SIGSTOP) past its lease, then
// resumed, writes nothing for the run another worker took over. Each test has worker A drive a
// run against a counting server, stops A, lets worker B claim the run once A's heartbeat is older
// than the ttl and finish it, resumes A, and finds the log as it was when B finished (no second
// end of any attempt, no event by A):
// - stopped while its external POST waits for its reply: B records the attempt unknown (never
//   re-run blindly) and reads the server's count; A, resumed, finds its heartbeat stale before
//   anything else and stops driving; the POST was received once;
// - stopped in the middle of a tick (a heavy transform whose commit comes after it): A, resumed,
//   goes straight on to commit, and the store refuses it (WF001, weft_fence), which A reports.
// The in-process twin is test/host/pg-workers.test.ts.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngineSession, type EngineSession } from '../../engine/host/engine-host.ts';
import { openPgPool } from '../../engine/store/pg/pg-connection.ts';
import { startCluster } from '../fixtures/pg/cluster.ts';
import { startCountingServer, type CountingServer } from '../fixtures/pg/counting-server.ts';
import { effectKey, writeEffectWorkflows } from '../fixtures/pg/effect-workflows.ts';
import { doubleEnds, readLog, type EventRow } from '../fixtures/pg/event-recorder.ts';
import { failWithoutPgUnderCi, pgMissing, SKIP_PG } from '../fixtures/pg/test-pg.ts';
import { cpuTicks, startWorker, type WorkerProcess } from '../fixtures/pg/worker-process.ts';
import { waitFor, waitUntil } from '../wait-until.ts';

failWithoutPgUnderCi();

const TTL_MS = 1_000;

interface Lease {
  owner: string | null;
  claims: number;
}

/**
 * A GET (no effect), then a transform whose work is heavy only on the first answer (the server's
 * count 1): the engine that got it computes ~2 s in one tick, and commits the GET's end and the
 * transform's output together after it. A second engine, re-running the GET, gets count 2 and
 * computes nothing much.
 */
const CRUNCH = {
  format: 'weft/v1',
  id: 'crunch',
  version: 1,
  name: 'Crunch',
  input: { type: 'object', required: ['api', 'work'], properties: { api: { type: 'string' }, work: { type: 'integer' } } },
  steps: [
    { id: 'fetch', kind: 'http', config: { method: 'GET', url: '{{ input.api }}/fetch?key={{ run.id }}:fetch' } },
    { id: 'crunch', kind: 'transform', config: { expression: '{ "n": $count([1..(steps.fetch.output.body.count = 1 ? input.work : 1)].($ * 2)) }' } },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'fetched', from: 'fetch', to: 'crunch' }, { id: 'crunched', from: 'crunch', to: 'done' }],
};

const typeStep = (e: EventRow): string => `${e.type}${e.step === null ? '' : ` ${e.step}`}`;

describe.skipIf(SKIP_PG)(SKIP_PG ? `skipped: ${pgMissing() ?? ''}` : 'a worker stopped past its lease', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'weft-pg-fencing-'));
  const env = { ...process.env, WEFT_CONFIG_DIR: join(dir, 'config'), WEFT_ARTIFACTS_DIR: join(dir, 'artifacts') };
  writeEffectWorkflows(dir);
  writeFileSync(join(dir, 'crunch.weft.json'), JSON.stringify(CRUNCH));
  let server: CountingServer;

  beforeAll(async () => {
    server = await startCountingServer(25);
  });
  afterAll(async () => {
    for (const clean of cleanups.reverse()) await clean();
    await server.close();
  });

  /** A cluster of the test's own, an intake engine on it (weft serve --no-worker: it makes the store and hands runs to the workers), and reads of a run's lease and state. */
  async function setUp(): Promise<{ url: string; intake: EngineSession; lease(runId: string): Promise<Lease | undefined>; state(runId: string): Promise<string | undefined> }> {
    const cluster = startCluster();
    cleanups.push(() => cluster.stop());
    const intake = await openEngineSession(cluster.url, 'test', 'create', env, { shared: { role: 'serve', intake: true, ttlMs: 60_000 } });
    cleanups.push(() => intake.close().catch(() => undefined));
    const pool = openPgPool(cluster.url, { max: 1 });
    cleanups.push(() => pool.end());
    return {
      url: cluster.url,
      intake,
      lease: async (runId) => (await pool.query<Lease>('SELECT owner, claims FROM run_leases WHERE run_id = $1', [runId])).rows[0],
      state: async (runId) => (await pool.query<{ state: string }>('SELECT state FROM runs WHERE id = $1', [runId])).rows[0]?.state,
    };
  }

  function worker(url: string): WorkerProcess {
    const w = startWorker(url, TTL_MS, dir, env);
    cleanups.push(async () => {
      w.signal('SIGCONT');
      w.signal('SIGKILL');
      await w.done;
    });
    return w;
  }

  it('stopped during an external request, it writes nothing for the run another worker took over, and the request is not sent again', async () => {
    const { url, intake, lease, state } = await setUp();
    const a = worker(url);
    await waitFor(() => a.ids()[0], 'worker A registers');

    const { runId } = await intake.service({ workspace: dir }).startRun({ workflow: 'charge', input: { api: server.url, holdMs: 3_000 } });
    const key = effectKey(runId, 'charge');
    await waitUntil(() => server.count(key) === 1, 'A sends the POST (the server holds its reply)');
    const before = await lease(runId);
    // A's (on a loaded machine A may have lapsed and registered again: any of its ids).
    expect(a.ids()).toContain(before?.owner);
    const aIds = a.ids().length;
    a.signal('SIGSTOP');

    const b = worker(url);
    await waitUntil(async () => b.ids().includes((await lease(runId))?.owner ?? ''), 'B takes the run over once A is past its ttl');
    expect((await lease(runId))?.claims).toBeGreaterThan(before?.claims ?? 0);
    await waitUntil(async () => (await state(runId)) === 'succeeded', 'B finishes the run through the verify step');
    const atFinish = await readLog(url);
    const types = atFinish.filter((e) => e.run_id === runId).map(typeStep);
    expect(types).toContain('attempt_unknown charge');
    expect(types).not.toContain('attempt_succeeded charge');
    expect(types).toContain('attempt_succeeded verify');
    expect(server.count(key)).toBe(1);

    // Resumed, A's overdue heartbeat runs first and finds its registration stale: A stops driving, with nothing written.
    await waitUntil(() => server.requests.every((r) => r.answered), "the server writes A's held reply");
    const said = a.stderr().length;
    a.signal('SIGCONT');
    await waitUntil(() => /^weft worker: lease lost: /m.test(a.stderr().slice(said)), 'A says it lost its lease');
    await waitUntil(() => a.ids().length > aIds, 'A registers again under a new id');
    // A stopped driving and registered again under a new id: had it written anything for the run, it would be in the log by now.
    const after = await readLog(url);
    expect(after).toEqual(atFinish);
    expect(doubleEnds(after)).toEqual([]);
    expect(server.count(key)).toBe(1);
    expect(server.requests.filter((r) => r.path === '/charge' && r.count > 0)).toHaveLength(1);
    expect(a.exited()).toBe(false);
  });

  it('stopped in the middle of a tick, it resumes into a commit, which the store refuses (WF001)', async () => {
    const { url, intake, lease, state } = await setUp();
    const a = worker(url);
    await waitFor(() => a.ids()[0], 'worker A registers');
    const { runId } = await intake.service({ workspace: dir }).startRun({ workflow: 'crunch', input: { api: server.url, work: 400_000 } });
    await waitUntil(() => server.requests.some((r) => r.key === `${runId}:fetch` && r.answered), 'A has the first answer to its GET');
    const cpu = cpuTicks(a.pid);
    await waitUntil(() => cpuTicks(a.pid) >= cpu + 20, "A computes the transform (its tick's commit comes after it)");
    a.signal('SIGSTOP');
    const before = await lease(runId);
    // A's (on a loaded machine A may have lapsed and registered again: any of its ids).
    expect(a.ids()).toContain(before?.owner);
    const aIds = a.ids().length;
    expect((await readLog(url)).filter((e) => e.run_id === runId).map(typeStep)).not.toContain('attempt_succeeded fetch');

    const b = worker(url);
    await waitUntil(async () => b.ids().includes((await lease(runId))?.owner ?? ''), 'B takes the run over once A is past its ttl');
    expect((await lease(runId))?.claims).toBeGreaterThan(before?.claims ?? 0);
    await waitUntil(async () => (await state(runId)) === 'succeeded', 'B finishes the run');
    const atFinish = await readLog(url);

    // Resumed inside its tick, A finishes the transform and commits before its heartbeat timer can run: the fence refuses it.
    const said = a.stderr().length;
    a.signal('SIGCONT');
    await waitUntil(() => /^weft worker: lease lost: /m.test(a.stderr().slice(said)), 'A says it lost its lease');
    expect(a.stderr().slice(said)).toMatch(new RegExp(`^weft worker: lease lost: .*no longer holds run\\(s\\) ${runId}`, 'm'));
    await waitUntil(() => a.ids().length > aIds, 'A registers again under a new id');
    const after = await readLog(url);
    expect(after).toEqual(atFinish);
    expect(doubleEnds(after)).toEqual([]);
    const crunched = after.find((e) => e.run_id === runId && e.type === 'attempt_succeeded' && e.step === 'crunch');
    expect(JSON.parse(crunched?.data ?? '{}')).toMatchObject({ output: { n: 1 } });
    expect(b.exited()).toBe(false);
  });
});
