// Crash torture across workers (issue 25): three `weft worker --lease-ttl-ms 1000` processes on one
// PostgreSQL store, restarted as they die, run 60 runs of five workflows against a counting server
// (test/fixtures/pg/effect-workflows.ts: external POSTs with an unknown route to a verify read or
// to a person, an idempotent PUT with retries, a timer, an approval), while the test SIGKILLs a
// random worker every 100–400 ms, 100 times, and once crashes PostgreSQL itself (CHECKPOINT, then
// `pg_ctl stop -m immediate` and a restart). A reader that is never killed records every committed
// event. Once the kills stop and the workers have settled every run, the workers stop (SIGTERM),
// half the approvals are answered by an engine session that acquires their runs, and then:
// (1) no external effect was received twice; (2) every interrupted external attempt is unknown
// and never run again; (3) every run finished, waits on a person, or needs one for an unknown;
// (4) every recorded event is in the final log, identical, with cursors and seqs without holes;
// (5) each `runs` row's state is its log's fold. Seeded: WEFT_CRASH_SEED repeats a run.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openEngineSession, type EngineSession } from '../../engine/host/engine-host.ts';
import { foldRun } from '../../engine/runtime/fold-run.ts';
import { openPgPool } from '../../engine/store/pg/pg-connection.ts';
import { openPgDb } from '../../engine/store/pg/open-pg-store.ts';
import { Store } from '../../engine/store/store.ts';
import { startCluster, type PgCluster } from '../fixtures/pg/cluster.ts';
import { startCountingServer, type CountingServer } from '../fixtures/pg/counting-server.ts';
import { writeEffectWorkflows } from '../fixtures/pg/effect-workflows.ts';
import { doubleEnds, logDefects, readLog, startRecorder, type EventRecorder } from '../fixtures/pg/event-recorder.ts';
import { effectDefects, stateDefects, type RunStates } from '../fixtures/pg/torture-checks.ts';
import { failWithoutPgUnderCi, pgMissing, SKIP_PG } from '../fixtures/pg/test-pg.ts';
import { startWorker, startWorkerPool, type WorkerPool } from '../fixtures/pg/worker-process.ts';
import { between, seededRandom } from '../crash/seeded-random.ts';
import { waitFor, waitUntil } from '../wait-until.ts';

failWithoutPgUnderCi();

const SEED = Number(process.env['WEFT_CRASH_SEED'] ?? 25);
const KILLS = 100;
const RUNS = 60;
const WORKERS = 3;
const TTL_MS = 1_000;
/** The kill after which PostgreSQL itself is crashed and restarted. */
const PG_CRASH_AT = 50;
const WORKFLOWS = ['charge', 'pay', 'sync', 'timer', 'approval'] as const;
/** A run is settled for this test once its row is in one of these states (stateDefects then says whether it may be). */
const SETTLED = ['succeeded', 'failed', 'cancelled', 'needs_attention'];
/**
 * What a worker says when PostgreSQL goes down while it starts: no connection, a connection that
 * died under a statement, or the server ending it (SQLSTATE class 57, operator intervention).
 */
const DOWN_AT_START = /^weft worker: (cannot (connect to|run a statement on) PostgreSQL |PostgreSQL refused a statement .*\[57P0[1-3]\])/m;

describe.skipIf(SKIP_PG)(SKIP_PG ? `skipped: ${pgMissing() ?? ''}` : 'three workers, SIGKILLed 100 times, and PostgreSQL crashed once', () => {
  const random = seededRandom(SEED);
  const dir = mkdtempSync(join(tmpdir(), 'weft-pg-torture-'));
  const env = { ...process.env, WEFT_CONFIG_DIR: join(dir, 'config'), WEFT_ARTIFACTS_DIR: join(dir, 'artifacts') };
  writeEffectWorkflows(dir);
  let cluster: PgCluster | undefined;
  let server: CountingServer | undefined;
  let pool: WorkerPool | undefined;
  let recorder: EventRecorder | undefined;
  const sessions: EngineSession[] = [];

  afterAll(async () => {
    await pool?.stop();
    for (const s of sessions) await s.close().catch(() => undefined);
    await recorder?.stop().catch(() => undefined);
    await server?.close();
    cluster?.stop();
  });

  const open = async (url: string, role: 'serve' | 'command'): Promise<EngineSession> => {
    const s = await openEngineSession(url, 'test', 'create', env, { shared: role === 'serve' ? { role, intake: true, ttlMs: 60_000 } : { role, ttlMs: 60_000 } });
    sessions.push(s);
    return s;
  };

  it('loses no committed event, repeats no effect, and leaves every run finished or with a person', { timeout: 300_000 }, async () => {
    cluster = startCluster();
    const url = cluster.url;
    server = await startCountingServer(SEED);
    let intake = await open(url, 'serve'); // makes the store; runs it starts go to the workers
    recorder = startRecorder(url);
    pool = startWorkerPool(WORKERS, () => startWorker(url, TTL_MS, dir, env));
    const admin = openPgPool(url, { max: 1 });
    const runs = new Map<string, string>(); // run id -> workflow
    const crash = { down: Infinity, up: -Infinity }; // when PostgreSQL was stopped and when it took connections again (Date.now())
    const startRun = async (i: number): Promise<void> => {
      const workflow = WORKFLOWS[i % WORKFLOWS.length] ?? 'charge';
      const input = { api: server?.url ?? '', holdMs: between(random, 0, 300), failFirst: between(random, 0, 2) };
      const { runId } = await intake.service({ workspace: dir }).startRun({ workflow, input });
      runs.set(runId, workflow);
    };
    try {
      // The kills: a new run before each of the first 60, a random live worker SIGKILLed 100–400 ms later.
      for (let k = 0; k < KILLS; k++) {
        if (runs.size < RUNS) await startRun(runs.size);
        await new Promise((r) => setTimeout(r, between(random, 100, 400)));
        // A worker that has registered (is driving runs): one killed while it starts tests little.
        const live = await waitFor(() => {
          const up = pool?.current().flatMap((w, i) => (w.ids().length > 0 ? [i] : [])) ?? [];
          return up.length === 0 ? undefined : up;
        }, 'a worker registers');
        await pool.kill(live[between(random, 0, live.length - 1)] ?? 0);
        if (k === PG_CRASH_AT) {
          await admin.query('CHECKPOINT');
          crash.down = Date.now();
          cluster.stopImmediate();
          cluster.start();
          crash.up = Date.now();
          // The intake engine's connection died with the server: it is replaced, as a restarted `weft serve` would be.
          await intake.close().catch(() => undefined);
          intake = await open(url, 'serve');
        }
      }
      while (runs.size < RUNS) await startRun(runs.size);

      // The workers settle every run; then they stop, each giving its runs back.
      const states = async (): Promise<Map<string, string>> =>
        new Map((await admin.query<{ id: string; state: string }>('SELECT id, state FROM runs')).rows.map((r) => [r.id, r.state]));
      const settled = async (): Promise<boolean> => {
        const now = await states();
        return [...runs].every(([id, workflow]) => {
          const state = now.get(id) ?? '';
          return SETTLED.includes(state) || (workflow === 'approval' && state === 'waiting');
        });
      };
      await waitUntil(settled, 'the workers settle every run', { pollMs: 200 });
      // SIGTERM drains a worker once it is running: one still loading would just die of it.
      await waitUntil(() => pool?.current().every((w) => w.ids().length > 0) ?? false, 'every worker registers');
      const claims = (await admin.query<{ run_id: string; claims: number }>('SELECT run_id, claims FROM run_leases')).rows;
      const last = pool.current();
      const exits = await pool.stop();
      // A worker whose start met PostgreSQL down (it could not connect, or its connection died while it
      // registered) exits 2, weft worker's contract, and is started again; nothing else ends one. Such a
      // worker never registered, was started before PostgreSQL came back, and was seen to exit after it went down.
      const downAtStart = pool.unexpected.filter(
        (u) =>
          u.code === 2 &&
          u.worker.ids().length === 0 &&
          u.worker.startedAt <= crash.up &&
          u.exitedAt >= crash.down &&
          DOWN_AT_START.test(u.worker.stderr()),
      );
      expect(pool.unexpected.filter((u) => !downAtStart.includes(u)).map((u) => u.said)).toEqual([]);
      expect(exits, last.map((w) => w.stderr()).join('\n---\n')).toEqual(Array(WORKERS).fill(0));

      // Half the approvals are answered by an engine session that acquires their runs (no worker holds them now).
      await intake.close();
      const person = await open(url, 'command');
      const approvals = [...runs].filter(([, w]) => w === 'approval').map(([id]) => id);
      const answered = approvals.filter((_, i) => i % 2 === 0);
      for (const runId of answered) {
        await person.service({ workspace: dir }).decide(runId, 'ask', { action: 'approve', by: 'tester' });
        expect(await person.engine.settled(runId)).toBe('succeeded');
      }
      await person.close();
      await recorder.stop();

      // The checks, against the final store.
      const log = await readLog(url);
      const db = openPgDb(url, { create: false });
      const folded = new Map<string, RunStates>();
      try {
        const store = new Store(db);
        const rows = db.prepare('SELECT id, workflow_id, state FROM runs').all() as { id: string; workflow_id: string; state: string }[];
        for (const r of rows) folded.set(r.id, { workflow: r.workflow_id, row: r.state, folded: foldRun(store, r.id).state });
      } finally {
        db.close();
      }
      const effects = effectDefects(log, server);
      const byState: Record<string, number> = {};
      for (const s of folded.values()) byState[s.folded] = (byState[s.folded] ?? 0) + 1;
      const takeovers = claims.reduce((n, c) => n + Math.max(0, c.claims - 2), 0);
      const reRegistered = pool.started.reduce((n, w) => n + (w.stderr().match(/^weft worker: registering again$/gm)?.length ?? 0), 0);
      const repeatedPuts = [...server.counts()].filter(([key, n]) => key.includes(':put:') && n > 1).length;
      console.log(
        `pg-torture (seed ${SEED}): ${KILLS} worker SIGKILLs, 1 PostgreSQL crash, ${pool.started.length} worker processes (${downAtStart.length} found PostgreSQL down), ${takeovers} takeovers (at most ${Math.max(...claims.map((c) => c.claims))} claims of one run), ${reRegistered} workers registering again after a lost lease or database, ` +
          `${log.filter((e) => e.type === 'engine_resumed').length} runs resumed with interrupted attempts; ${effects.external} external attempts, ${effects.unknown} unknown; ${repeatedPuts} idempotent PUTs retried; ` +
          `${recorder.events.length} events recorded (${recorder.failedPolls()} failed polls); runs by state ${JSON.stringify(byState)}; approvals answered ${answered.length} of ${approvals.length}`,
      );

      expect(folded.size).toBe(RUNS);
      expect(effects.defects).toEqual([]);
      expect(doubleEnds(log)).toEqual([]);
      expect(stateDefects(log, folded)).toEqual([]);
      expect(recorder.holes).toEqual([]);
      expect(logDefects(recorder.events, log)).toEqual([]);
      expect(recorder.events.length).toBe(log.length);
      for (const runId of answered) expect(folded.get(runId)?.folded).toBe('succeeded');
      expect(effects.unknown).toBeGreaterThan(0);
      expect(takeovers).toBeGreaterThan(0);
      // A run passes on only when its holder dies or gives it back: no run was claimed more often than there were engines (workers' registrations and the two intake engines).
      const registrations = pool.started.reduce((n, w) => n + w.ids().length, 0) + 2;
      expect(Math.max(...claims.map((c) => c.claims))).toBeLessThanOrEqual(registrations);
    } finally {
      await admin.end();
    }
  });
});
