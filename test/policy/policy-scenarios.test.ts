// Scenario tests of each policy kind, refused and allowed, in virtual time
// (test/fixtures/policy-scenarios): every scenario passes and gives the same log twice; a
// scenario that expects a refusal fails when its policy is taken away, and so does one that
// expects an operator's action refused; and the engine itself holds a run to its policy's retry
// limits even when its definition asks for more (a run started through the library, or moved to
// a new version), naming the rule in the reason it records.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScenarioFile, type Scenario } from '../../shared/scenario/scenario-schema.ts';
import { runScenario } from '../../engine/scenario/run-scenario.ts';
import { Engine } from '../../engine/runtime/engine.ts';
import { ScriptedExecutor, type ScriptedOutcome } from '../../engine/scenario/scripted-executor.ts';
import { driveUntilQuiet } from '../../engine/scenario/drive.ts';
import { seededRandom, VirtualClock } from '../../engine/runtime/virtual-clock.ts';
import { openDatabase } from '../../engine/store/open-database.ts';
import { Store } from '../../engine/store/store.ts';
import { hashOf } from '../../engine/store/canonical-json.ts';
import type { Policy } from '../../shared/policy/policy-schema.ts';
import { parseWorkflow } from '../engine/harness.ts';

const dir = join(import.meta.dirname, '..', 'fixtures', 'policy-scenarios');
const names = readdirSync(dir).filter((f) => f.endsWith('.weft.json')).map((f) => f.slice(0, -'.weft.json'.length)).sort();
const load = (name: string) => {
  const file = ScenarioFile.parse(JSON.parse(readFileSync(join(dir, `${name}.scenarios.json`), 'utf8')));
  const workflow = parseWorkflow(JSON.parse(readFileSync(join(dir, `${name}.weft.json`), 'utf8')));
  // A file's policy applies to each scenario that gives none (as weft test reads it).
  return file.scenarios.map((s) => ({ workflow, scenario: (s.policy === undefined && file.policy !== undefined ? { ...s, policy: file.policy } : s) as Scenario }));
};
const all = names.flatMap((n) => load(n).map(({ workflow, scenario }) => [`${n}: ${scenario.name}`, workflow, scenario] as const));

describe('policy scenarios', () => {
  it('cover each policy kind, refused and allowed', () => {
    const titles = all.map(([t]) => t).join('\n');
    for (const kind of ['approvals allowed', 'approvals refused', 'retry caps allowed', 'retry caps refused', 'forbid automatic_retry refused', 'forbid automatic_retry allowed', 'agents refused', 'agents allowed', 'forbidden operator actions refused', 'operator actions allowed', 'escalation after failures', 'escalation after time', 'escalation not needed', 'forbid compensation_without_approval allowed', 'forbid compensation_without_approval refused']) {
      expect(titles, kind).toContain(kind);
    }
  });

  it.each(all)('%s passes, the same way twice', async (_name, workflow, scenario) => {
    const a = await runScenario(workflow, scenario);
    expect(a.error).toBeUndefined();
    expect(a.assertions.filter((x) => !x.ok)).toEqual([]);
    expect(a.assertions.length).toBeGreaterThan(0);
    const b = await runScenario(workflow, scenario);
    expect(JSON.stringify(b.events)).toBe(JSON.stringify(a.events));
    if (scenario.expect.refused === undefined) expect(a.events.length).toBeGreaterThan(0);
    else expect(a.events).toEqual([]);
  });

  const refusedOnes = all.filter(([, , s]) => s.expect.refused !== undefined);
  it.each(refusedOnes)('%s fails without its policy: the run starts', async (_name, workflow, scenario) => {
    const { policy: _dropped, ...without } = scenario;
    const r = await runScenario(workflow, without);
    expect(r.passed).toBe(false);
    expect(r.assertions[0]).toMatchObject({ ok: false, actual: 'the run started: the definition keeps the policy' });
  });

  it('a refusal the scenario did not expect fails it, with the refusal', async () => {
    const [, workflow, scenario] = refusedOnes[0] ?? [];
    if (workflow === undefined || scenario === undefined) throw new Error('no refused scenario');
    const r = await runScenario(workflow, { ...scenario, expect: { state: 'succeeded' } });
    expect(r.passed).toBe(false);
    expect(String(r.assertions[0]?.actual)).toMatch(/^refused: workflow "[a-z-]+" v1 breaks the workspace policy, so it does not start: policy "/);
  });

  it('the forbidden operator actions are accepted without the rule, so the scenario fails', async () => {
    const [, workflow, scenario] = all.find(([t]) => t.includes('forbidden operator actions refused')) ?? [];
    if (workflow === undefined || scenario === undefined) throw new Error('no such scenario');
    const r = await runScenario(workflow, { ...scenario, policy: { format: 'weft-policy/v1' } });
    expect(r.assertions.filter((a) => !a.ok).map((a) => a.what)).toContain('retry of "charge" at 120000 ms refused');
  });
});

describe('the engine holds a run to its policy\'s retry limits', () => {
  const flow = parseWorkflow({
    format: 'weft/v1', id: 'shipping', version: 1, name: 'Shipping',
    steps: [
      { id: 'ship', kind: 'command', effect: 'idempotent', tags: ['carrier'], config: { argv: ['never-run'] }, retry: { maxAttempts: 5, initialIntervalMs: 1_000 } },
      { id: 'done', kind: 'end' },
      { id: 'stuck', kind: 'end', config: { status: 'failed' } },
    ],
    edges: [{ id: 'a', from: 'ship', to: 'done' }, { id: 'b', from: 'ship', to: 'stuck', on: 'failed' }],
  });

  async function run(policy: Policy | undefined): Promise<{ attempts: number; reason: string | undefined }> {
    const clock = new VirtualClock();
    const scripted = new ScriptedExecutor(clock, new Map<string, ScriptedOutcome[]>([['ship', [{ fail: 'carrier_busy', takeMs: 10 }]]]));
    const db = openDatabase(':memory:');
    const store = new Store(db);
    const engine = new Engine({ store, clock, random: seededRandom(1), executors: { command: scripted } });
    // Started through the library, without the service's start check: only the engine's own limit applies.
    const runId = engine.startRun({ workflow: flow, definitionHash: store.saveDefinition(flow, clock.now()), input: {}, workspaceDir: '/virtual', ...(policy === undefined ? {} : { policy: { hash: hashOf(policy), rules: policy } }) });
    await driveUntilQuiet(engine, clock);
    const events = store.readEvents(runId);
    engine.close();
    db.close();
    return { attempts: events.filter((e) => e.type === 'attempt_started' && e.step === 'ship').length, reason: events.find((e) => e.type === 'step_settled' && e.step === 'ship')?.reason ?? undefined };
  }

  it('retries as declared without a policy', async () => {
    expect((await run(undefined)).attempts).toBe(5);
  });

  it('caps the attempts at the retries rule, naming it', async () => {
    const r = await run({ format: 'weft-policy/v1', retries: [{ id: 'two-tries', select: { tags: ['carrier'] }, maxAttempts: 2 }] });
    expect(r.attempts).toBe(2);
    expect(r.reason).toContain('policy "two-tries" allows 2 attempts');
  });

  it('makes no automatic retry under forbid automatic_retry, naming the rule', async () => {
    const r = await run({ format: 'weft-policy/v1', forbid: [{ id: 'no-auto-retry', action: 'automatic_retry', select: { kinds: ['command'] } }], retries: [{ id: 'three', maxAttempts: 3 }] });
    expect(r.attempts).toBe(1);
    expect(r.reason).toContain('policy "no-auto-retry" allows no automatic retry');
  });
});
