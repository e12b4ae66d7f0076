// Scenario runners of the engine benchmark: each builds a fresh store, drives runs through a real
// Engine, and reports wall time plus what the store wrote. Kept apart from engine-bench.ts, which
// only decides what to run and prints.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StepKind } from '../../shared/definition/names.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { Executor } from '../../engine/executors/executor.ts';
import { systemClock, systemRandom } from '../../engine/time/clock.ts';
import { Engine } from '../../engine/runtime/engine.ts';
import { openDatabase } from '../../engine/store/open-database.ts';
import { Store, type StoreStats } from '../../engine/store/store.ts';
import { engineFixture, tempDir, type Governance } from './engine-fixture.ts';
import { timeNode, type ProcessSample } from './process-timer.ts';

export interface RunsSample {
  /** Wall time of the timed runs. */
  ms: number;
  /** Steps of the timed runs. */
  steps: number;
  /** What the timed runs cost the store (commits, durable commits, rows, data bytes). */
  stats: StoreStats;
  /** The store after all runs, the untimed first one included: steps, events, data bytes, file size. */
  store: { steps: number; events: number; dataBytes: number; fileBytes: number };
}

/** An executor that succeeds at once: a step with a real attempt (and commit) but no work. */
export const noopExecutor: Executor = { execute: () => Promise.resolve({ outcome: 'succeeded', output: {} }) };

/**
 * Runs `runs` runs of `workflow` on a fresh store, one after another (each awaited) or all at
 * once (all started, then awaited). Every run must succeed.
 */
export async function measureRuns(
  workflow: Workflow,
  runs: number,
  mode: 'sequential' | 'concurrent',
  executors: Partial<Record<StepKind, Executor>> = {},
  governance: Governance = {},
): Promise<RunsSample> {
  const f = engineFixture(executors, undefined, governance);
  try {
    // An untimed first run saves the definition and warms this store's statements.
    await f.engine.settled(f.start(workflow));
    const before = { ...f.store.stats };
    const start = performance.now();
    const states: string[] = [];
    if (mode === 'sequential') {
      for (let k = 0; k < runs; k++) states.push(await f.engine.settled(f.start(workflow)));
    } else {
      const ids = Array.from({ length: runs }, () => f.start(workflow));
      states.push(...(await Promise.all(ids.map((id) => f.engine.settled(id)))));
    }
    const ms = performance.now() - start;
    const failed = states.filter((s) => s !== 'succeeded');
    if (failed.length > 0) throw new Error(`${failed.length} runs of ${workflow.id} ended ${failed[0]}`);
    const stats: StoreStats = {
      commits: f.store.stats.commits - before.commits,
      durableCommits: f.store.stats.durableCommits - before.durableCommits,
      rows: f.store.stats.rows - before.rows,
      bytes: f.store.stats.bytes - before.bytes,
    };
    const totals = f.eventTotals();
    return {
      ms,
      steps: runs * workflow.steps.length,
      stats,
      store: { steps: (runs + 1) * workflow.steps.length, ...totals, fileBytes: f.fileBytes() },
    };
  } finally {
    f.close();
  }
}

// ---------------------------------------------------------------- recovery

const CHILD = fileURLToPath(new URL('./engine-recovery-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A store holding `count` runs parked on a one-hour timer, left by a process that was SIGKILLed. */
export async function killedStore(count: number): Promise<string> {
  const dir = tempDir('weft-bench-killed-');
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir, String(count)], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const signal = await new Promise<NodeJS.Signals | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, sig) => (sig === null ? reject(new Error(`recovery child exited with ${code}: ${stderr}`)) : resolve(sig)));
  });
  if (signal !== 'SIGKILL') throw new Error(`recovery child ended by ${signal}: ${stderr}`);
  return join(dir, 'weft.db');
}

/** A private copy of a killed store (its file and WAL, as the kill left them). */
function copyStore(dbPath: string): { dir: string; dbPath: string } {
  const dir = tempDir('weft-bench-recover-');
  const copy = join(dir, 'weft.db');
  copyFileSync(dbPath, copy);
  if (existsSync(`${dbPath}-wal`)) copyFileSync(`${dbPath}-wal`, `${copy}-wal`);
  return { dir, dbPath: copy };
}

export interface RecoverySample {
  openMs: number;
  recoverMs: number;
  tickMs: number;
  totalMs: number;
  runs: number;
  resumedEvents: number;
}

/**
 * Opens a copy of the killed store in a fresh Engine and times: open (SQLite + Store + Engine),
 * `engine.recover()` (fold every unfinished run, re-arm its timer) and the first tick (projections;
 * no engine_resumed events, since nothing was interrupted).
 */
export async function measureRecovery(killed: string): Promise<RecoverySample> {
  const { dir, dbPath } = copyStore(killed);
  const t0 = performance.now();
  const db = openDatabase(dbPath);
  const store = new Store(db);
  const engine = new Engine({ store, clock: systemClock, random: systemRandom, executors: {} });
  const t1 = performance.now();
  const { runs } = engine.recover();
  const t2 = performance.now();
  // The first tick: until the engine has nothing left to do (recovering parked runs may commit
  // nothing at all, since nothing in them changed).
  await new Promise((r) => setImmediate(r));
  while (!engine.idle) await new Promise((r) => setImmediate(r));
  const t3 = performance.now();
  const resumedEvents = (db.prepare("SELECT count(*) AS n FROM events WHERE type = 'engine_resumed'").get() as { n: number }).n;
  engine.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
  return { openMs: t1 - t0, recoverMs: t2 - t1, tickMs: t3 - t2, totalMs: t3 - t0, runs, resumedEvents };
}

/**
 * Wall time of `weft resume --db` (a new process) on a copy of the killed store; `env` is added to
 * the child's (WEFT_FROM_SOURCE=1 forces the tsx path).
 */
export async function measureCliResume(killed: string, env: Record<string, string> = {}): Promise<ProcessSample & { lines: number }> {
  const { dir, dbPath } = copyStore(killed);
  try {
    const sample = await timeNode([join(ROOT, 'bin/weft.js'), 'resume', '--db', dbPath, '--json'], ROOT, env);
    return { ...sample, lines: sample.stdout.split('\n').filter((l) => l !== '').length };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
