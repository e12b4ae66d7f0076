// The engine on PostgreSQL with several workers (`npm run bench -- engine --store postgres`, issue
// 25): steps/s with 1, 2 and 4 `weft worker` processes sharing one store, what a step costs the
// database (transactions and WAL bytes), and how long a dead worker's runs wait before another
// worker drives them. The cluster is the bench's own, with fsync on (real commits); runs are
// started by an intake engine in this process (as `weft serve --no-worker` starts them) and the
// clock runs from the first start to the last run finished: what a person waiting for the batch
// waits. Workers are real processes of the built CLI (`npm run build` first).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openEngineSession, type EngineSession } from '../../engine/host/engine-host.ts';
import { openPgDb } from '../../engine/store/pg/open-pg-store.ts';
import type { PgDb } from '../../engine/store/pg/pg-db.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { startCluster, type PgCluster } from '../fixtures/pg/cluster.ts';
import { formatTable, median } from './benchmark.ts';
import { chainWorkflow } from './engine-workflows.ts';
import { parseWorkflow } from '../engine/harness.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/weft.js');
const WORKERS = [1, 2, 4];
const REPS = 3;
const TTL_MS = 2_000;
const RECOVERY_RUNS = 100;

/** 10 steps in a row whose 9 work steps each wait 1 ms: every step is a tick and a commit of its own. */
function waitChain(): Workflow {
  const steps = [...Array.from({ length: 9 }, (_, k) => ({ id: `w${k + 1}`, kind: 'wait' as const, config: { durationMs: 1 } })), { id: 'end', kind: 'end' as const }];
  const edges = steps.slice(1).map((s, k) => ({ id: `e${k + 1}`, from: steps[k]?.id ?? '', to: s.id }));
  return parseWorkflow({ format: 'weft/v1', id: 'bench-chain-wait-10', version: 1, name: '10 wait steps', steps, edges });
}

/** Runs parked on a 50 s timer: a worker keeps a run due within a minute (run-release.ts), so a dead worker leaves them to be taken over. */
function parked(): Workflow {
  return parseWorkflow({
    format: 'weft/v1', id: 'bench-parked', version: 1, name: 'parked',
    steps: [{ id: 'park', kind: 'wait', config: { durationMs: 50_000 } }, { id: 'end', kind: 'end' }],
    edges: [{ id: 'e1', from: 'park', to: 'end' }],
  });
}

interface Fleet {
  url: string;
  admin: PgDb;
  intake: EngineSession;
  workers: ChildProcess[];
  stop(): Promise<void>;
}

/** A fresh schema with `n` workers running on it and an intake engine here. */
async function fleet(pg: PgCluster, workspace: string, n: number, env: NodeJS.ProcessEnv): Promise<Fleet> {
  const schema = `b${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const url = `${pg.url}?schema=${schema}`;
  const intake = await openEngineSession(url, 'bench', 'create', env, { shared: { role: 'serve', intake: true, ttlMs: 60_000 } });
  const admin = openPgDb(pg.url, { schema, create: false });
  const workers = Array.from({ length: n }, () => spawn(process.execPath, [BIN, 'worker', '--store', url, '--lease-ttl-ms', String(TTL_MS)], { cwd: workspace, env, stdio: ['ignore', 'ignore', 'pipe'] }));
  await until(() => count(admin, "SELECT count(*) AS n FROM weft_workers WHERE role = 'worker'") === n, `${n} workers registered`);
  return {
    url,
    admin,
    intake,
    workers,
    async stop() {
      await Promise.all(workers.map((w) => stopChild(w)));
      await intake.close();
      admin.close();
    },
  };
}

function count(db: PgDb, sql: string, ...args: unknown[]): number {
  return Number((db.prepare(sql).get(...args) as { n: number | string }).n);
}

async function until(check: () => boolean, what: string, limitMs = 120_000): Promise<void> {
  const giveUp = performance.now() + limitMs;
  while (!check()) {
    if (performance.now() > giveUp) throw new Error(`bench: gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => {
    child.once('exit', () => r());
    child.kill('SIGTERM');
  });
}

interface Sample {
  ms: number;
  steps: number;
  xacts: number;
  walBytes: number;
}

/** Starts `runs` runs of `wf` and times them until every one has finished. */
async function timeBatch(f: Fleet, wf: Workflow, runs: number, workspace: string): Promise<Sample> {
  const stats = (): { xacts: number; wal: number } => {
    const row = f.admin.prepare("SELECT xact_commit AS x, pg_current_wal_lsn() - '0/0'::pg_lsn AS wal FROM pg_stat_database WHERE datname = current_database()").get() as { x: number; wal: number | string };
    return { xacts: Number(row.x), wal: Number(row.wal) };
  };
  const service = f.intake.service({ workspace });
  const before = stats();
  const t0 = performance.now();
  const ids: string[] = [];
  for (let k = 0; k < runs; k++) ids.push((await service.startRun({ workflow: wf.id, input: {} })).runId);
  const states = (): Map<string, number> => new Map((f.admin.pg.query('SELECT state, count(*) AS n FROM runs WHERE id = ANY($1::text[]) GROUP BY state', [ids]).rows as Record<string, unknown>[]).map((r) => [String(r['state']), Number(r['n'])]));
  const finished = (m: Map<string, number>): number => (m.get('succeeded') ?? 0) + (m.get('failed') ?? 0) + (m.get('cancelled') ?? 0);
  await until(() => finished(states()) === runs, `${runs} runs of ${wf.id} finished`);
  const ms = performance.now() - t0;
  const after = stats();
  const end = states();
  if ((end.get('succeeded') ?? 0) !== runs) throw new Error(`bench: not every run of ${wf.id} succeeded: ${JSON.stringify([...end])}`);
  return { ms, steps: runs * wf.steps.length, xacts: after.xacts - before.xacts, walBytes: after.wal - before.wal };
}

/** Time from a SIGKILL of the worker holding `RECOVERY_RUNS` parked runs until the survivor holds them all. */
async function timeRecovery(pg: PgCluster, workspace: string, env: NodeJS.ProcessEnv): Promise<number> {
  const f = await fleet(pg, workspace, 1, env);
  try {
    const service = f.intake.service({ workspace });
    for (let k = 0; k < RECOVERY_RUNS; k++) await service.startRun({ workflow: 'bench-parked', input: {} });
    await until(() => count(f.admin, "SELECT count(*) AS n FROM runs WHERE state = 'waiting'") === RECOVERY_RUNS && count(f.admin, 'SELECT count(*) AS n FROM run_leases WHERE owner IS NULL') === 0, 'the parked runs claimed');
    const second = spawn(process.execPath, [BIN, 'worker', '--store', f.url, '--lease-ttl-ms', String(TTL_MS)], { cwd: workspace, env, stdio: ['ignore', 'ignore', 'pipe'] });
    f.workers.push(second);
    await until(() => count(f.admin, "SELECT count(*) AS n FROM weft_workers WHERE role = 'worker'") === 2, 'the second worker registered');
    const victim = f.workers[0];
    const t0 = performance.now();
    victim?.kill('SIGKILL');
    const pid = second.pid ?? 0;
    await until(() => count(f.admin, 'SELECT count(*) AS n FROM run_leases l JOIN weft_workers w ON w.id = l.owner WHERE w.pid = ?', pid) === RECOVERY_RUNS, 'the survivor holds every run');
    return performance.now() - t0;
  } finally {
    await f.stop();
  }
}

/** The PostgreSQL rows of the engine benchmark. */
export async function pgEngineRows(print: (line: string) => void): Promise<void> {
  if (!existsSync(join(ROOT, 'dist/cli'))) throw new Error('bench: the PostgreSQL rows run `weft worker` processes from dist/: run npm run build first');
  const pg = startCluster({ fsync: true });
  const workspace = mkdtempSync(join(tmpdir(), 'weft-bench-pg-'));
  const env = { ...process.env, WEFT_CONFIG_DIR: join(workspace, 'config'), WEFT_ARTIFACTS_DIR: join(workspace, 'artifacts') };
  try {
    const cases = [
      { name: 'transform ×10, 200 runs', wf: chainWorkflow(10, 'transform'), runs: 200 },
      { name: 'wait 1 ms ×10, 100 runs', wf: waitChain(), runs: 100 },
    ];
    for (const wf of [...cases.map((c) => c.wf), parked()]) writeFileSync(join(workspace, `${wf.id}.weft.json`), JSON.stringify(wf));
    const rows = [['case', 'workers', 'steps', 'median ms', 'steps/s', 'ms/step', 'xacts/step', 'WAL B/step']];
    for (const c of cases) {
      for (const n of WORKERS) {
        const f = await fleet(pg, workspace, n, env);
        try {
          await timeBatch(f, c.wf, Math.min(20, c.runs), workspace); // warm-up, untimed
          const samples: Sample[] = [];
          for (let k = 0; k < REPS; k++) samples.push(await timeBatch(f, c.wf, c.runs, workspace));
          const ms = median(samples.map((s) => s.ms));
          const last = samples[samples.length - 1] as Sample;
          rows.push([c.name, String(n), String(last.steps), ms.toFixed(0), Math.round((last.steps / ms) * 1000).toLocaleString('en-US'), (ms / last.steps).toFixed(3), (last.xacts / last.steps).toFixed(2), (last.walBytes / last.steps).toFixed(0)]);
        } finally {
          await f.stop();
        }
      }
    }
    for (const line of formatTable(rows)) print(line);
    print('PostgreSQL 15 of the bench (fsync on, Unix socket), `weft worker` processes with --lease-ttl-ms 2000, runs');
    print('started by an intake engine here; time from the first start to the last run finished, median of 3 after a');
    print('warm-up. xacts/step and WAL B/step: the database\'s commits (heartbeats and claims too) and WAL per step.');
    const recoveries: number[] = [];
    for (let k = 0; k < 3; k++) recoveries.push(await timeRecovery(pg, workspace, env));
    print('');
    print(`recovery after a worker's death: ${RECOVERY_RUNS} parked runs held by a SIGKILLed worker are all held by the`);
    print(`other worker after ${median(recoveries).toFixed(0)} ms (median of 3: ${recoveries.map((r) => r.toFixed(0)).join(', ')} ms; the ttl is ${TTL_MS} ms, the claim poll ttl/4)`);
  } finally {
    pg.stop();
    rmSync(workspace, { recursive: true, force: true });
  }
}
