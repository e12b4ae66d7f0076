// Fencing across processes (issue 25): a `weft worker` stopped (SIGSTOP) past its lease while its
// external http request is in flight, then resumed, writes nothing for the run another worker took
// over. Worker A starts the run's POST to a counting server that holds the reply ~3 s; A is
// stopped; worker B claims the run once A's heartbeat is older than the ttl, records the attempt
// unknown (an external effect interrupted is never re-run blindly), reads the server's count and
// finishes the run. A is resumed: it says "lease lost" and registers again, its reply arrives, and
// the log is what it was when B finished: no second end of the attempt, no event by A, and the
// POST was received once. The in-process twin is test/host/pg-workers.test.ts.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngineSession, type EngineSession } from '../../engine/host/engine-host.ts';
import { openPgPool } from '../../engine/store/pg/pg-connection.ts';
import { startCluster, type PgCluster } from '../fixtures/pg/cluster.ts';
import { startCountingServer, type CountingServer } from '../fixtures/pg/counting-server.ts';
import { effectKey, writeEffectWorkflows } from '../fixtures/pg/effect-workflows.ts';
import { doubleEnds, readLog } from '../fixtures/pg/event-recorder.ts';
import { failWithoutPgUnderCi, pgMissing, SKIP_PG } from '../fixtures/pg/test-pg.ts';
import { startWorker, type WorkerProcess } from '../fixtures/pg/worker-process.ts';
import { waitFor, waitUntil } from '../wait-until.ts';

failWithoutPgUnderCi();

const TTL_MS = 1_000;

describe.skipIf(SKIP_PG)(SKIP_PG ? `skipped: ${pgMissing() ?? ''}` : 'a worker stopped past its lease', () => {
  let cluster: PgCluster;
  let server: CountingServer;
  let intake: EngineSession | undefined;
  const workers: WorkerProcess[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'weft-pg-fencing-'));
  const env = { ...process.env, WEFT_CONFIG_DIR: join(dir, 'config'), WEFT_ARTIFACTS_DIR: join(dir, 'artifacts') };
  writeEffectWorkflows(dir);

  beforeAll(async () => {
    cluster = startCluster();
    server = await startCountingServer(25);
  });
  afterAll(async () => {
    for (const w of workers) {
      w.signal('SIGCONT');
      w.signal('SIGKILL');
      await w.done;
    }
    await intake?.close().catch(() => undefined);
    await server.close();
    cluster.stop();
  });

  it('writes nothing for a run another worker took over, and its request is not sent again', async () => {
    // The intake engine makes the store and hands the run to the workers (weft serve --no-worker).
    intake = await openEngineSession(cluster.url, 'test', 'create', env, { shared: { role: 'serve', intake: true, ttlMs: 60_000 } });
    const pool = openPgPool(cluster.url, { max: 1 });
    const lease = async (runId: string): Promise<{ owner: string | null; claims: number } | undefined> =>
      (await pool.query<{ owner: string | null; claims: number }>('SELECT owner, claims FROM run_leases WHERE run_id = $1', [runId])).rows[0];
    const state = async (runId: string): Promise<string | undefined> => (await pool.query<{ state: string }>('SELECT state FROM runs WHERE id = $1', [runId])).rows[0]?.state;
    try {
      const a = startWorker(cluster.url, TTL_MS, dir, env);
      workers.push(a);
      const aId = await waitFor(() => a.ids()[0], 'worker A registers');

      const { runId } = await intake.service({ workspace: dir }).startRun({ workflow: 'charge', input: { api: server.url, holdMs: 3_000 } });
      const key = effectKey(runId, 'charge');
      await waitUntil(() => server.count(key) === 1, 'A sends the POST (the server holds its reply)');
      const before = await lease(runId);
      expect(before?.owner).toBe(aId);
      a.signal('SIGSTOP');

      const b = startWorker(cluster.url, TTL_MS, dir, env);
      workers.push(b);
      const bId = await waitFor(() => b.ids()[0], 'worker B registers');
      await waitUntil(async () => (await lease(runId))?.owner === bId, 'B takes the run over once A is past its ttl');
      expect((await lease(runId))?.claims).toBe((before?.claims ?? 0) + 1);
      await waitUntil(async () => (await state(runId)) === 'succeeded', 'B finishes the run through the verify step');
      const atFinish = await readLog(cluster.url);
      const types = atFinish.filter((e) => e.run_id === runId).map((e) => `${e.type}${e.step === null ? '' : ` ${e.step}`}`);
      expect(types).toContain('attempt_unknown charge');
      expect(types).not.toContain('attempt_succeeded charge');
      expect(types).toContain('attempt_succeeded verify');
      expect(server.count(key)).toBe(1);

      a.signal('SIGCONT');
      await waitUntil(() => /^weft worker: lease lost: /m.test(a.stderr()), 'A says it lost its lease');
      await waitUntil(() => a.ids().length >= 2, 'A registers again under a new id');
      await waitUntil(() => server.requests.every((r) => r.answered), "the server writes A's held reply");
      // A had its reply and its lease back under a new id: had it written anything for the run, it would be in the log by now.
      const after = await readLog(cluster.url);
      expect(after).toEqual(atFinish);
      expect(doubleEnds(after)).toEqual([]);
      expect(server.count(key)).toBe(1);
      expect(server.requests.filter((r) => r.path === '/charge' && r.count > 0)).toHaveLength(1);
      expect(a.ids()[1]).not.toBe(aId);
      expect(a.exited()).toBe(false);
    } finally {
      await pool.end();
    }
  });
});
