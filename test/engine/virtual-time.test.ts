// Virtual time: the real engine on an in-memory store with a virtual clock and scripted step
// outcomes. Days of deadlines and hours of backoff run at once, and the same scenario gives the
// same event log twice, timestamps included.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StepKind } from '../../shared/definition/names.ts';
import { ScenarioFile } from '../../shared/scenario/scenario-schema.ts';
import type { Executor } from '../../engine/executors/executor.ts';
import { driveUntilQuiet } from '../../engine/scenario/drive.ts';
import { runScenario } from '../../engine/scenario/run-scenario.ts';
import { ScriptedExecutor, type ScriptedOutcome } from '../../engine/scenario/scripted-executor.ts';
import { Engine } from '../../engine/runtime/engine.ts';
import { seededRandom, VirtualClock } from '../../engine/runtime/virtual-clock.ts';
import { openDatabase } from '../../engine/store/open-database.ts';
import { Store } from '../../engine/store/store.ts';
import { parseWorkflow } from './harness.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const flow = parseWorkflow({
  format: 'weft/v1', id: 'slow-world', version: 1, name: 'Slow world',
  steps: [
    { id: 'fetch', kind: 'command', config: { argv: ['never-run'] }, retry: { maxAttempts: 11, initialIntervalMs: HOUR, backoffCoefficient: 1, jitter: 0.5 } },
    { id: 'approve', kind: 'human', config: { task: 'approve', title: 'Approve' }, deadlineMs: 7 * DAY },
    { id: 'done', kind: 'end' },
    { id: 'late', kind: 'end', config: { status: 'failed' } },
  ],
  edges: [
    { id: 'a', from: 'fetch', to: 'approve' },
    { id: 'b', from: 'approve', to: 'done' },
    { id: 'c', from: 'approve', to: 'late', on: 'expired' },
    { id: 'd', from: 'fetch', to: 'late', on: 'failed' },
  ],
});

async function scenario(seed: number): Promise<{ log: string; elapsed: number; state: string | undefined }> {
  const clock = new VirtualClock();
  const script = new Map<string, ScriptedOutcome[]>([['fetch', [...Array.from({ length: 10 }, () => ({ fail: 'busy', takeMs: 5_000 })), { succeed: { rows: 3 }, takeMs: 5_000 }]]]);
  const scripted = new ScriptedExecutor(clock, script);
  const executors: Partial<Record<StepKind, Executor>> = { command: scripted };
  const db = openDatabase(':memory:');
  const store = new Store(db);
  const engine = new Engine({ store, clock, random: seededRandom(seed), executors });
  const hash = store.saveDefinition(flow, clock.now());
  const start = clock.now();
  const runId = engine.startRun({ workflow: flow, definitionHash: hash, input: {}, workspaceDir: '/virtual' });
  await driveUntilQuiet(engine, clock);
  const events = store.readEvents(runId);
  const state = store.getRun(runId)?.state;
  engine.close();
  db.close();
  return { log: JSON.stringify(events), elapsed: clock.now() - start, state };
}

describe('virtual time', () => {
  it('runs 10 hourly retries and a 7-day deadline without waiting for them', async () => {
    const r = await scenario(7);
    expect(r.state).toBe('failed'); // nobody approved within 7 days: the expired path
    expect(r.elapsed).toBeGreaterThan(7 * DAY);
    expect(r.elapsed).toBeLessThan(7 * DAY + 11 * HOUR);
    const events = JSON.parse(r.log) as { type: string; step: string | null; data: { delayMs?: number } }[];
    const delays = events.filter((e) => e.type === 'retry_scheduled').map((e) => e.data.delayMs ?? 0);
    expect(delays).toHaveLength(10);
    for (const d of delays) expect(d).toBeGreaterThanOrEqual(HOUR / 2);
    expect(events.filter((e) => e.type === 'deadline_passed')).toHaveLength(1);
  });

  it('gives the same event log twice for the same seed, timestamps included', async () => {
    const a = await scenario(42);
    const b = await scenario(42);
    expect(b.log).toBe(a.log);
    const c = await scenario(43);
    expect(c.log).not.toBe(a.log); // the jitter differs, and so do the times
  });
});

describe('virtual time in a scenario file', () => {
  it('test/fixtures/scenarios/slow-world: a 7-day deadline after 10 hourly retries passes in virtual time', async () => {
    const dir = join(import.meta.dirname, '..', 'fixtures', 'scenarios');
    const wf = parseWorkflow(JSON.parse(readFileSync(join(dir, 'slow-world.weft.json'), 'utf8')));
    const [expired, approved] = ScenarioFile.parse(JSON.parse(readFileSync(join(dir, 'slow-world.scenarios.json'), 'utf8'))).scenarios;
    const r = await runScenario(wf, expired as NonNullable<typeof expired>);
    expect(r.assertions.filter((a) => !a.ok)).toEqual([]);
    expect(r.virtualMs).toBeGreaterThan(7 * DAY + 10 * HOUR / 2);
    expect(r.events.filter((e) => e.type === 'retry_scheduled')).toHaveLength(10);
    const ok = await runScenario(wf, approved as NonNullable<typeof approved>);
    expect(ok.passed).toBe(true);
  });
});
