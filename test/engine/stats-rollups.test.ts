// Stats from rollups (engine/store/run-rollups.ts) against the full scan they replace
// (scannedWorkflowReport folds every run's log): over a seeded, random-ish history of
// refund-check runs (retries, failures, compensations, people's decisions, runs left waiting or
// needing attention, operator pauses, resumes, cancels, retries and resolutions, engine crashes
// in scenarios), over a store upgraded from schema 9 by migration 10, and over a store left by
// a real `weft run` killed mid-run, the report is the same, value for value.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { overrideEnv } from '../env-override.ts';
import { ScenarioFile, type Scenario } from '../../shared/scenario/scenario-schema.ts';
import { runScenario } from '../../engine/scenario/run-scenario.ts';
import { scannedWorkflowReport, workflowReport } from '../../engine/metrics/stats.ts';
import { servedWorkflowReport } from '../../engine/metrics/served-report.ts';
import { bucketSpan, UNIT_MS } from '../../shared/run/start-buckets.ts';
import type { RunsOverTime, WorkflowReport } from '../../shared/api/workflow-stats.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { openDatabase } from '../../engine/store/open-database.ts';
import { Store } from '../../engine/store/store.ts';
import { openReadOnlyStore } from '../../engine/service/read-only-store.ts';
import { seededRandom } from '../../engine/runtime/virtual-clock.ts';
import { killTree } from '../crash/process-tree.ts';
import { startCli } from '../crash/weft-cli.ts';
import { until } from './until.ts';
import { parseWorkflow } from './harness.ts';

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'metrics');
const workflow = parseWorkflow(JSON.parse(readFileSync(join(fixtures, 'refund-check.weft.json'), 'utf8')));
const SEED = Number(process.env['WEFT_ROLLUP_SEED'] ?? 20);

/** One random-ish refund-check run: what each step does, who decides when, what an operator does. */
function randomScenario(random: () => number, n: number): Scenario {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const ms = (max: number): number => 1 + Math.floor(random() * max);
  const large = random() < 0.5;
  // What the calls cost (docs/metrics.md, "Cost"): fixed amounts, so the random sequence is the one it was.
  const lookup = [
    ...Array.from({ length: pick([0, 0, 1, 2]) }, () => ({ fail: 'http_503', takeMs: ms(200), cost: 0.0007 })),
    { succeed: { status: 200, body: { amount: large ? 250 : 40 } }, takeMs: ms(300), usage: { inputTokens: 1000 + n, outputTokens: 120 }, cost: (n % 7) / 1000 },
  ];
  const payFate = pick(['ok', 'ok', 'hang', 'fail']);
  const pay = payFate === 'ok' ? [{ succeed: { status: 201 }, takeMs: ms(400) }] : payFate === 'hang' ? [{ hang: true }, { succeed: { status: 201 }, takeMs: ms(400) }] : [{ fail: 'http_500', takeMs: ms(50), cost: 0.0013 }, { succeed: { status: 201 }, takeMs: ms(400), cost: 0.0013 }];
  const decide = large ? pick(['approve', 'reject', 'none']) : 'none';
  const operator = pick(['none', 'none', 'cancel', 'pause-resume', 'resolve', 'retry', 'cancel-late']);
  const actions: NonNullable<Scenario['operator']> = [];
  if (operator === 'cancel') actions.push({ atMs: ms(500), action: 'cancel', reason: 'test' });
  if (operator === 'cancel-late') actions.push({ atMs: 20_000_000, action: 'cancel', reason: 'test' });
  if (operator === 'pause-resume') actions.push({ atMs: ms(300), action: 'pause' }, { atMs: 5000 + ms(5000), action: 'resume' });
  if (operator === 'resolve') actions.push({ atMs: 16_000_000, action: 'resolve', step: 'pay', as: pick(['succeeded', 'failed']), evidence: { checked: true } });
  if (operator === 'retry') actions.push({ atMs: 16_000_000, action: 'retry', step: 'pay' });
  const scenario = {
    name: `random ${n}`,
    seed: n,
    input: { refundId: `R${n}` },
    steps: { lookup, reserve: [{ succeed: { status: 201 }, takeMs: ms(100) }], pay, release: [{ succeed: { status: 204 }, takeMs: ms(60) }] },
    ...(decide === 'none' ? {} : { decisions: [{ step: 'review', atMs: 1000 + ms(7_000_000), decision: decide === 'approve' ? 'approve' : 'reject', by: 'ana' }] }),
    ...(actions.length === 0 ? {} : { operator: actions }),
    ...(random() < 0.15 ? { crash: { afterEvent: pick(['attempt_started', 'step_settled', 'step_activated']), nth: 1 + Math.floor(random() * 3) } } : {}),
    expect: {},
  };
  // Whatever the engine refuses (an action on a run already ended) is part of the history too.
  return ScenarioFile.parse({ scenarios: [scenario] }).scenarios[0] as Scenario;
}

/** A refund whose lookup fails every attempt (the run fails), then an operator's retry of it succeeds and the refund is paid. */
function reopenedScenario(n: number): Scenario {
  return ScenarioFile.parse({
    scenarios: [{
      name: `reopened ${n}`,
      seed: n,
      input: { refundId: `R${n}` },
      steps: {
        lookup: [...Array.from({ length: 3 }, () => ({ fail: 'http_503', takeMs: 50, cost: 0.0007 })), { succeed: { status: 200, body: { amount: 40 } }, takeMs: 100, cost: 0.002 }],
        reserve: [{ succeed: { status: 201 }, takeMs: 100 }],
        pay: [{ succeed: { status: 201 }, takeMs: 300 }],
      },
      operator: [{ atMs: 17_000_000, action: 'retry', step: 'lookup' }],
      expect: {},
    }],
  }).scenarios[0] as Scenario;
}

/** The run ended failed, was taken back to running, and ended again. */
function failedThenFinished(store: Store, runId: string): boolean {
  const states = store.readEvents(runId).flatMap((e) => (e.type === 'run_state_changed' ? [e.data.state] : []));
  const failedAt = states.indexOf('failed');
  return failedAt >= 0 && states.slice(failedAt + 1).includes('running') && ['succeeded', 'failed', 'cancelled'].includes(states[states.length - 1] ?? '');
}

/** The report from the rollups and from a fold of every log, side by side, as of one instant. */
function bothReports(store: Store, version?: number): { rolled: unknown; scanned: unknown } {
  const opts = { asOf: Date.UTC(2027, 0, 1), ...(version === undefined ? {} : { version }) };
  return { rolled: workflowReport(store, 'refund-check', opts), scanned: scannedWorkflowReport(store, 'refund-check', opts) };
}

/** What runsOverTime must count, worked out from every run's metrics. */
function expectedOverTime(runs: WorkflowReport['runs'], offsetMin: number): RunsOverTime {
  if (runs.length === 0) return { by: 'day', offsetMin, buckets: [] };
  const starts = runs.map((r) => r.startedAt);
  const span = bucketSpan(Math.min(...starts), Math.max(...starts), offsetMin);
  const by = span.single ? 'minute' : span.by;
  const unit = UNIT_MS[by];
  const key = (t: number): number => Math.floor((t + span.shiftMs) / unit);
  const from = key(Math.min(...starts));
  const buckets = Array.from({ length: key(Math.max(...starts)) - from + 1 }, (_, i) => {
    const g = runs.filter((r) => key(r.startedAt) === from + i);
    return {
      start: (from + i) * unit - span.shiftMs,
      runs: g.length,
      finished: g.filter((r) => r.finished).length,
      succeeded: g.filter((r) => r.state === 'succeeded').length,
      retried: g.filter((r) => r.retries > 0).length,
      compensated: g.filter((r) => r.compensations > 0).length,
      intervened: g.filter((r) => r.humanInterventions > 0).length,
    };
  });
  return { by, offsetMin, buckets };
}

/**
 * The report GET /api/stats answers (per-workflow rollups, the newest `listed` runs) against a
 * fold of every log: the same figures, the newest runs, and the over-all-runs parts the page uses.
 */
function expectServedAgrees(store: Store, workflowId: string, asOf: number, version?: number, listed = 7): WorkflowReport {
  const opts = { asOf, ...(version === undefined ? {} : { version }) };
  const scanned = scannedWorkflowReport(store, workflowId, opts);
  for (const offsetMin of [0, -330, -345, 210]) {
    const served = servedWorkflowReport(store, workflowId, { ...opts, runs: listed, tzOffsetMin: offsetMin });
    expect(served.stats).toEqual(scanned.stats);
    expect(served.runs).toEqual(scanned.runs.slice(Math.max(0, scanned.runs.length - listed)));
    expect(served.runsOmitted).toBe(Math.max(0, scanned.runs.length - listed));
    const taking = Object.fromEntries(Object.keys(scanned.stats.edges).map((id) => [id, scanned.runs.filter((r) => (r.edges[id]?.taken ?? 0) > 0).length]));
    expect(served.edgeRuns).toEqual(taking);
    expect(served.runsOverTime).toEqual(expectedOverTime(scanned.runs, offsetMin));
  }
  return scanned;
}

describe('stats from rollups agree with the full scan', () => {
  it('over a random-ish history: retries, failures, decisions, operator acts, crashes, runs still going', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-rollups-'));
    const dbPath = join(dir, 'weft.db');
    const random = seededRandom(SEED);
    for (let n = 1; n <= 40; n++) await runScenario(workflow, randomScenario(random, n), { dbPath });
    // A run that fails (the payout found to have failed) and is reopened by an operator's retry, which pays.
    await runScenario(workflow, reopenedScenario(41), { dbPath });
    const { store, close } = await openReadOnlyStore(dbPath);
    try {
      const { rolled, scanned } = bothReports(store);
      expect(rolled).toEqual(scanned);
      expectServedAgrees(store, 'refund-check', Date.UTC(2027, 0, 1));
      // A failed run was reopened by an operator's retry and finished again.
      expect(store.runIdsOfWorkflow('refund-check').some((id) => failedThenFinished(store, id))).toBe(true);
      // The history is as mixed as intended: finished runs in each end state, and runs still going.
      const states = (scanned as { stats: { states: Record<string, number> } }).stats.states;
      expect(states['succeeded']).toBeGreaterThan(0);
      expect(states['failed']).toBeGreaterThan(0);
      expect(states['cancelled']).toBeGreaterThan(0);
      expect((states['waiting'] ?? 0) + (states['needs_attention'] ?? 0) + (states['running'] ?? 0)).toBeGreaterThan(0);
      // Finished runs are read from their rollups, not folded: each has one row, the others none.
      const rows = store.rolledUpRuns('refund-check');
      const finished = rows.filter(([, json]) => json !== null).length;
      expect(finished).toBe((states['succeeded'] ?? 0) + (states['failed'] ?? 0) + (states['cancelled'] ?? 0));
    } finally {
      close();
    }
  });

  it('migration 10 builds the rollups of a store written before them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-rollups-old-'));
    const dbPath = join(dir, 'weft.db');
    const random = seededRandom(SEED + 1);
    for (let n = 1; n <= 12; n++) await runScenario(workflow, randomScenario(random, n), { dbPath });
    // As a store of schema 9 would be: no kind of run (migration 13), no rollups table, and no rollups (nor migration 11's, nor 12's snapshots, nor 14's and 18's cost per day).
    const old = openDatabase(dbPath);
    const before = (old.prepare('SELECT count(*) AS n FROM run_metrics').get() as { n: number }).n;
    expect(before).toBeGreaterThan(0);
    old.exec('DROP TABLE run_metrics; DROP INDEX runs_newest; DROP INDEX runs_by_workflow_newest; ALTER TABLE runs DROP COLUMN kind; PRAGMA user_version = 9');
    old.exec('DROP TABLE stat_runs; DROP TABLE stat_steps; DROP TABLE stat_edges; DROP TABLE stat_starts; DROP TABLE stat_samples; DROP TABLE stat_cost_days; DROP TABLE policies; DROP TABLE run_snapshots');
    old.close();
    const conn = openDatabase(dbPath, { mode: 'write' });
    const upgraded = new Store(conn);
    try {
      expect((conn.prepare('SELECT count(*) AS n FROM run_metrics').get() as { n: number }).n).toBe(before);
      const { rolled, scanned } = bothReports(upgraded, 1);
      expect(rolled).toEqual(scanned);
      expectServedAgrees(upgraded, 'refund-check', Date.UTC(2027, 0, 1));
    } finally {
      conn.close();
    }
  });

  it('per-workflow rollups: several workflows and versions, the version filter, and migration 11 over a store of schema 10', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-rollups-workflows-'));
    const dbPath = join(dir, 'weft.db');
    const random = seededRandom(SEED + 2);
    const v2: Workflow = { ...workflow, version: 2 };
    const other: Workflow = { ...workflow, id: 'refund-other', name: 'another refund check' };
    for (let n = 1; n <= 10; n++) await runScenario(workflow, randomScenario(random, n), { dbPath });
    for (let n = 11; n <= 20; n++) await runScenario(v2, randomScenario(random, n), { dbPath });
    await runScenario(v2, reopenedScenario(21), { dbPath });
    for (let n = 22; n <= 27; n++) await runScenario(other, randomScenario(random, n), { dbPath });
    const asOf = Date.UTC(2027, 0, 1);
    const agreeing = (store: Store): void => {
      for (const version of [undefined, 1, 2]) expectServedAgrees(store, 'refund-check', asOf, version, 4);
      expectServedAgrees(store, 'refund-other', asOf, undefined, 100);
      const all = scannedWorkflowReport(store, 'refund-check', { asOf });
      expect(all.stats.versions).toEqual([1, 2]);
      expect(all.stats.runs).toBe(21);
    };
    const { store, close } = await openReadOnlyStore(dbPath);
    try {
      agreeing(store);
    } finally {
      close();
    }
    // As a store of schema 10 would be: run rollups, but no per-workflow ones (nor migration 12's snapshots, nor 14's and 18's cost per day); migration 11 builds them from the run rollups.
    const old = openDatabase(dbPath);
    const rollups = (old.prepare('SELECT count(*) AS n FROM run_metrics').get() as { n: number }).n;
    expect(rollups).toBeGreaterThan(10);
    old.exec('DROP TABLE stat_runs; DROP TABLE stat_steps; DROP TABLE stat_edges; DROP TABLE stat_starts; DROP TABLE stat_samples; DROP TABLE stat_cost_days; DROP TABLE policies; DROP TABLE run_snapshots; ALTER TABLE runs DROP COLUMN kind; PRAGMA user_version = 10');
    old.close();
    const conn = openDatabase(dbPath, { mode: 'write' });
    const upgraded = new Store(conn);
    try {
      expect((conn.prepare('SELECT sum(runs) AS n FROM stat_runs').get() as { n: number }).n).toBe(rollups);
      agreeing(upgraded);
    } finally {
      conn.close();
    }
  });

  it('a store left by an engine killed mid-run still agrees', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-rollups-crash-'));
    const dbPath = join(dir, 'weft.db');
    const file = join(dir, 'nap.weft.json');
    // Fast while no file "slow" is there; with it, the step sleeps until the engine is killed.
    writeFileSync(file, JSON.stringify({
      format: 'weft/v1', id: 'nap', version: 1, name: 'nap',
      steps: [{ id: 'nap', kind: 'command', config: { argv: ['sh', '-c', 'if [ -f slow ]; then sleep 60; fi; echo "{}"'] } }, { id: 'done', kind: 'end', config: { status: 'succeeded' } }],
      edges: [{ id: 'e1', from: 'nap', to: 'done' }],
    }));
    // The workflow runs a command: its workspace is trusted, in a config folder of this test's own.
    onTestFinished(overrideEnv({ WEFT_CONFIG_DIR: join(dir, 'config') }));
    expect((await startCli(['trust', dir], dir).done).code).toBe(0);
    for (let n = 0; n < 3; n++) expect((await startCli(['run', file, '--db', dbPath], dir).done).code).toBe(0);
    writeFileSync(join(dir, 'slow'), '');
    const cli = startCli(['run', file, '--db', dbPath], dir);
    try {
      await until(() => {
        const conn = openDatabase(dbPath, { mode: 'read' });
        const store = new Store(conn);
        try {
          return store.listRuns(10).some((r) => r.state === 'running' && store.readEvents(r.id).some((e) => e.type === 'attempt_started'));
        } finally {
          conn.close();
        }
      }, 'the fourth run to start its sleeping attempt');
    } finally {
      killTree(cli.pid);
      await cli.done;
    }
    const { store, close } = await openReadOnlyStore(dbPath);
    try {
      const asOf = Date.now();
      const report = workflowReport(store, 'nap', { asOf });
      expect(report).toEqual(scannedWorkflowReport(store, 'nap', { asOf }));
      expectServedAgrees(store, 'nap', asOf, undefined, 2);
      expect(report.stats.states).toMatchObject({ succeeded: 3, running: 1 });
    } finally {
      close();
    }
  });
});
