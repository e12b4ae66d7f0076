// Metrics are checked against figures worked out by hand from a fixed scenario set
// (test/fixtures/metrics/refund-check.*): the per-run time split, retries, compensations,
// interventions and failure location, the workflow's rates, branch frequencies and p50/p95,
// and `weft stats` on a real SQLite file holding those runs.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/events/run-event.ts';
import { ScenarioFile } from '../../shared/scenario/scenario-schema.ts';
import { runMetrics, type RunMetrics } from '../../engine/metrics/run-metrics.ts';
import { percentile, workflowStats } from '../../engine/metrics/workflow-stats.ts';
import { runScenario } from '../../engine/scenario/run-scenario.ts';
import { REPO_ROOT } from '../cli/run-weft.ts';
import { weftInProcess } from '../cli/capture-io.ts';
import { harness, parseWorkflow, until } from './harness.ts';

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'metrics');
const workflowFile = join(fixtures, 'refund-check.weft.json');
const workflow = parseWorkflow(JSON.parse(readFileSync(workflowFile, 'utf8')));
const scenarios = ScenarioFile.parse(JSON.parse(readFileSync(join(fixtures, 'refund-check.scenarios.json'), 'utf8'))).scenarios;
const START = Date.UTC(2026, 0, 1);

// Worked out by hand from the scenarios (takeMs, backoff 1000 then 2000 ms without jitter,
// decisions at 2 h and 1 h, the payout's 15 s timeout):
//  R1 small:    lookup 0–200, reserve 200–300, pay 300–600.                 600 ms, all active.
//  R2 large:    lookup 0–100 fail, wait 1000, 1100–1200 fail, wait 2000, 3200–3300 ok; reserve
//               3300–3400; review 3400–7 200 000; pay 7 200 000–7 200 300.  active 300+100+300.
//  R3 declined: lookup 0–100, reserve 100–200, review 200–3 600 000, release 3 600 000–3 600 050.
//  R4 unknown:  lookup 0–100, reserve 100–200, pay 200–15 200 (timeout), needs attention.
const HAND = {
  R1: { state: 'succeeded', durationMs: 600, activeMs: 600, waitingMs: 0, retries: 0, compensations: 0, humanInterventions: 0, failure: null },
  R2: { state: 'succeeded', durationMs: 7_200_300, activeMs: 700, waitingMs: 7_199_600, retries: 2, compensations: 0, humanInterventions: 1, failure: null },
  R3: { state: 'failed', durationMs: 3_600_050, activeMs: 250, waitingMs: 3_599_800, retries: 0, compensations: 1, humanInterventions: 1, failure: { step: 'review', outcome: 'rejected' } },
  R4: { state: 'needs_attention', durationMs: 15_200, activeMs: 15_200, waitingMs: 0, retries: 0, compensations: 0, humanInterventions: 0, failure: { step: 'pay', outcome: 'unknown' } },
} as const;

function pick(m: RunMetrics): Record<string, unknown> {
  return {
    state: m.state,
    durationMs: m.durationMs,
    activeMs: m.activeMs,
    waitingMs: m.waitingMs,
    retries: m.retries,
    compensations: m.compensations,
    humanInterventions: m.humanInterventions,
    failure: m.failure === null ? null : { step: m.failure.step, outcome: m.failure.outcome },
  };
}

/** The workflow figures over R1–R4, by hand. */
function expectHandStats(s: ReturnType<typeof workflowStats>): void {
  expect(s.runs).toBe(4);
  expect(s.states).toMatchObject({ succeeded: 2, failed: 1, needs_attention: 1, running: 0 });
  expect(s.finished).toBe(3);
  expect(s.successRate).toBe(2 / 3);
  expect(s.retryRate).toBe(1 / 4);
  expect(s.compensationRate).toBe(1 / 4);
  expect(s.humanInterventionRate).toBe(2 / 4);
  expect(s.totals).toEqual({ retries: 2, compensations: 1, humanInterventions: 2 });
  // finished durations 600, 3 600 050, 7 200 300: nearest rank p50 is the 2nd, p95 the 3rd
  expect(s.durationMs).toEqual({ p50: 3_600_050, p95: 7_200_300, max: 7_200_300, count: 3 });
  expect(s.failures).toEqual({ review: 1, pay: 1 });
  // lookup latencies 200, 3300, 100, 100 -> sorted 100, 100, 200, 3300: p50 2nd, p95 4th
  expect(s.steps['lookup']).toMatchObject({ runs: 4, activations: 4, attempts: 6, retries: 2, outcomes: { succeeded: 4 }, latencyMs: { p50: 100, p95: 3300, max: 3300, count: 4 } });
  expect(s.steps['review']).toMatchObject({ runs: 2, outcomes: { succeeded: 1, rejected: 1, skipped: 2 }, latencyMs: { p50: 3_599_800, p95: 7_196_600, count: 2 } });
  expect(s.steps['pay']).toMatchObject({ runs: 3, attempts: 3, outcomes: { succeeded: 2, unknown: 1, skipped: 1 }, latencyMs: { p50: 300, p95: 15_000, count: 3 } });
  expect(s.steps['release']).toMatchObject({ runs: 1, outcomes: { succeeded: 1 }, latencyMs: { p50: 50, p95: 50, count: 1 } });
  expect(s.edges).toEqual({
    looked_up: { decided: 4, taken: 4, frequency: 1 },
    reserved: { decided: 4, taken: 4, frequency: 1 },
    small: { decided: 4, taken: 2, frequency: 0.5 },
    large: { decided: 4, taken: 2, frequency: 0.5 },
    approved: { decided: 2, taken: 1, frequency: 0.5 },
    not_approved: { decided: 2, taken: 1, frequency: 0.5 },
    paid_out: { decided: 2, taken: 2, frequency: 1 },
  });
}

// `weft stats` through main() in this process: the same argv, exit code and output as the binary
// (test/cli/stats-schema.test.ts runs the binary itself).
const weft = (args: readonly string[]) => weftInProcess(args, REPO_ROOT);

describe('metrics of the refund-check scenarios, against figures worked out by hand', () => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-metrics-'));
  const dbPath = join(dir, 'weft.db');
  let logs: RunEvent[][] = [];

  beforeAll(async () => {
    logs = [];
    for (const s of scenarios) {
      const r = await runScenario(workflow, s, { dbPath });
      expect(r.assertions.filter((a) => !a.ok)).toEqual([]);
      logs.push(r.events);
    }
  });

  it('splits each run into active, waiting and queued time, and counts retries, compensations and interventions', () => {
    const [r1, r2, r3, r4] = logs.map((l) => runMetrics(l));
    expect(pick(r1 as RunMetrics)).toEqual(HAND.R1);
    expect(pick(r2 as RunMetrics)).toEqual(HAND.R2);
    expect(pick(r3 as RunMetrics)).toEqual(HAND.R3);
    expect(pick(r4 as RunMetrics)).toEqual(HAND.R4);
    expect(r2?.steps['lookup']).toMatchObject({ attempts: 3, retries: 2, durationMs: 3300, activeMs: 300, waitingMs: 3000, queueMs: 0 });
    expect(r2?.steps['review']).toMatchObject({ waitingMs: 7_196_600, activeMs: 0 });
    expect(r3?.steps['release']).toMatchObject({ compensates: 'reserve', activeMs: 50 });
    expect(r3?.interventions).toEqual({ decisions: 1, reassignments: 0, operatorActions: 0, revisions: 0 });
    expect(r2?.path).toEqual(['looked_up', 'reserved', 'large', 'approved', 'paid_out']);
    for (const m of [r1, r2, r3, r4]) expect((m?.activeMs ?? 0) + (m?.waitingMs ?? 0) + (m?.queueMs ?? 0) + (m?.attentionMs ?? 0)).toBe(m?.durationMs);
    // A run still open is measured up to asOf; the rest of its time is attention (it waits for an operator).
    const later = runMetrics(logs[3] ?? [], START + 60_000);
    expect(later).toMatchObject({ finished: false, endedAt: null, durationMs: 60_000, activeMs: 15_200, attentionMs: 44_800 });
  });

  it('gives the workflow figures: rates, branch frequencies, p50 and p95 per step', () => {
    expectHandStats(workflowStats('refund-check', logs.map((l) => runMetrics(l)), workflow));
  });

  it('weft stats --json reads the same figures from the store', async () => {
    const r = await weft(['stats', 'refund-check', '--db', dbPath, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { asOf: string; stats: ReturnType<typeof workflowStats>; runs: RunMetrics[] };
    expectHandStats(report.stats);
    expect(report.runs.map((m) => m.runId)).toEqual(logs.map((l) => l[0]?.runId).sort());
    const byInput = new Map(report.runs.map((m) => [m.runId, m]));
    const asOf = Date.parse(report.asOf);
    for (const [k, log] of logs.entries()) {
      const m = byInput.get(log[0]?.runId ?? '') as RunMetrics;
      const hand = Object.values(HAND)[k] as (typeof HAND)[keyof typeof HAND];
      if (m.finished) expect(pick(m)).toEqual(hand);
      else expect(pick(m)).toEqual({ ...hand, durationMs: asOf - START });
    }
  });

  it('weft stats prints the figures for a person, and takes the workflow file instead of its id', async () => {
    const r = await weft(['stats', workflowFile, '--db', dbPath]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('refund-check (v1): 4 runs (1 needs_attention, 2 succeeded, 1 failed)');
    expect(r.stdout).toContain('success 66.7% of 3 finished · retried 25% · compensated 25% · a person acted 50%');
    expect(r.stdout).toContain('run duration p50 1.0 h, p95 2.0 h (finished runs)');
    expect(r.stdout).toMatch(/lookup\s+4\s+6\s+2\s+100 ms\s+3\.3 s\s+succeeded 4/);
    expect(r.stdout).toMatch(/small\s+2\s+4\s+50%/);
    expect(r.stdout).toContain('newest 4 of 4 runs:');
  });

  it('refuses an unknown workflow, a bad version and a missing store, naming what exists', async () => {
    const unknown = await weft(['stats', 'refund-chek', '--db', dbPath]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no workflow "refund-chek" in this store; it has refund-check');
    const version = await weft(['stats', 'refund-check', '--db', dbPath, '--version', '7']);
    expect(version.code).toBe(2);
    expect(version.stderr).toContain('has no version 7 in this store; its latest is 1');
    const bad = await weft(['stats', 'refund-check', '--db', dbPath, '--version', 'two']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--version takes a whole number');
    const missing = await weft(['stats', 'refund-check', '--db', join(dir, 'none.db')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('there is no store at');
  });
});

describe('time split', () => {
  const ev = (seq: number, at: number, type: RunEvent['type'], step: string | null, data: unknown, activation: number | null = null, attempt: number | null = null): RunEvent =>
    ({ runId: 'r1', seq, at, type, step, activation, attempt, data, reason: null }) as RunEvent;
  const created = ev(1, 0, 'run_created', null, { workflowId: 'w', version: 1, definitionHash: 'h', workspaceDir: '.', input: {} });

  it('counts each instant once, preferring work over waiting over queueing; a rerun after a restart is not a retry', () => {
    const log = [
      created,
      ev(2, 0, 'run_queued', null, { priority: 0 }),
      ev(3, 500, 'run_dequeued', null, {}),
      // two branches: a, b work in parallel (500–2000 and 1000–3000), c waits for a person 500–5000
      ev(4, 500, 'step_activated', 'a', {}, 1),
      ev(5, 500, 'attempt_started', 'a', { inputHash: 'x', input: null, variant: null, effect: 'none' }, 1, 1),
      ev(6, 500, 'step_activated', 'c', {}, 1),
      ev(7, 500, 'attempt_started', 'c', { inputHash: 'x', input: null, variant: null, effect: 'none' }, 1, 1),
      ev(8, 500, 'task_opened', 'c', { task: 'approve', title: 't' }, 1, 1),
      ev(9, 800, 'step_activated', 'b', {}, 1),
      ev(10, 1000, 'attempt_started', 'b', { inputHash: 'x', input: null, variant: null, effect: 'none' }, 1, 1),
      ev(11, 2000, 'attempt_succeeded', 'a', { output: 1, evidenceId: 'a/1.1', covers: { inputHash: 'x', definitionVersion: 1, inputRevision: 0 } }, 1, 1),
      ev(12, 2000, 'step_settled', 'a', { outcome: 'succeeded', edges: [] }, 1),
      ev(13, 3000, 'attempt_failed', 'b', { error: { code: 'interrupted', message: 'engine restarted' }, retryable: true }, 1, 1),
      ev(14, 3000, 'retry_scheduled', 'b', { nextAttempt: 2, dueAt: 3000, delayMs: 0 }, 1),
      ev(15, 3000, 'attempt_started', 'b', { inputHash: 'x', input: null, variant: null, effect: 'none' }, 1, 2),
      ev(16, 3500, 'attempt_succeeded', 'b', { output: 1, evidenceId: 'b/1.2', covers: { inputHash: 'x', definitionVersion: 1, inputRevision: 0 } }, 1, 2),
      ev(17, 3500, 'step_settled', 'b', { outcome: 'succeeded', edges: [] }, 1),
      ev(18, 5000, 'task_decided', 'c', { decision: 'approved', by: 'ana' }, 1, 1),
      ev(19, 5000, 'attempt_succeeded', 'c', { output: 1, evidenceId: 'c/1.1', covers: { inputHash: 'x', definitionVersion: 1, inputRevision: 0 } }, 1, 1),
      ev(20, 5000, 'step_settled', 'c', { outcome: 'succeeded', edges: [] }, 1),
      ev(21, 5000, 'run_state_changed', null, { state: 'paused' }),
      ev(22, 9000, 'run_state_changed', null, { state: 'succeeded' }),
    ];
    const m = runMetrics(log);
    // queued 0–500; active 500–3500 (a, then b); waiting 3500–5000 (c); attention 5000–9000 (paused)
    expect(m).toMatchObject({ durationMs: 9000, queueMs: 500, activeMs: 3000, waitingMs: 1500, attentionMs: 4000, retries: 0, humanInterventions: 1 });
    expect(m.steps['b']).toMatchObject({ attempts: 2, retries: 0, queueMs: 200, activeMs: 2500, durationMs: 2700 });
    expect(m.steps['c']).toMatchObject({ waitingMs: 4500, activeMs: 0 });
  });

  it('refuses a log that does not start with run_created', () => {
    expect(() => runMetrics([])).toThrow(/starts with run_created/);
  });

  it('takes percentiles by nearest rank', () => {
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(percentile([1, 2, 3, 4], 0.95)).toBe(4);
    expect(percentile([7], 0.5)).toBe(7);
    expect(percentile(Array.from({ length: 100 }, (_, i) => i + 1), 0.95)).toBe(95);
  });
});

describe('engine API', () => {
  it('engine.runMetrics and engine.workflowStats fold what the engine has recorded', async () => {
    const h = harness();
    try {
      const flow = {
        format: 'weft/v1', id: 'api-metrics', version: 1, name: 'API metrics',
        steps: [
          { id: 'a', kind: 'transform', config: { expression: '1' } },
          { id: 'b', kind: 'transform', config: { expression: '2' } },
          { id: 'end', kind: 'end' },
        ],
        edges: [{ id: 'ab', from: 'a', to: 'b' }, { id: 'bend', from: 'b', to: 'end' }],
      };
      const { runId } = h.start(flow);
      await until(() => h.store.getRun(runId)?.state === 'succeeded', 'the run succeeds');
      const m = h.engine.runMetrics(runId.slice(0, 8));
      expect(m).toMatchObject({ runId, state: 'succeeded', finished: true, retries: 0, path: ['ab', 'bend'], failure: null });
      expect(m.activeMs + m.waitingMs + m.queueMs + m.attentionMs).toBe(m.durationMs);
      const second = h.start(flow).runId;
      await until(() => h.store.getRun(second)?.state === 'succeeded', 'the second run succeeds');
      const report = h.engine.workflowStats('api-metrics');
      expect(report.stats.runs).toBe(2);
      expect(report.stats.edges['ab']?.decided).toBeGreaterThanOrEqual(1);
      expect(() => h.engine.workflowStats('nope')).toThrow('no workflow "nope" in this store; it has api-metrics');
    } finally {
      h.close();
    }
  });
});
