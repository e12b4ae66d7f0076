// Scenario tests: every example's scenarios pass and run deterministically (the same event log
// twice, byte for byte, timestamps included), and a failing assertion exits 1 naming the
// assertion, expected and actual.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScenarioFile } from '../../shared/scenario/scenario-schema.ts';
import { runScenario } from '../../engine/scenario/run-scenario.ts';
import { weftInProcess as inProcess } from '../cli/capture-io.ts';
import { REPO_ROOT, runWeft } from '../cli/run-weft.ts';
import { parseWorkflow } from './harness.ts';

const root = join(import.meta.dirname, '..', '..');
const examples = join(root, 'examples');
/** NAME.scenarios.json and the *.json files of a NAME.scenarios/ folder, as `weft test` reads them. */
const scenarioFiles = (name: string, dir: string): string[] => {
  const folder = join(dir, `${name}.scenarios`);
  const more = existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.json')).sort().map((f) => join(folder, f)) : [];
  return [join(dir, `${name}.scenarios.json`), ...more];
};
const load = (name: string, dir = examples) => ({
  workflow: parseWorkflow(JSON.parse(readFileSync(join(dir, `${name}.weft.json`), 'utf8'))),
  scenarios: scenarioFiles(name, dir).flatMap((f) => ScenarioFile.parse(JSON.parse(readFileSync(f, 'utf8'))).scenarios),
});
const namesIn = (dir: string): string[] => readdirSync(dir).filter((f) => f.endsWith('.weft.json')).map((f) => f.slice(0, -'.weft.json'.length)).sort();
const names = namesIn(examples);
// Scenario files of the tests' own fixtures (two event steps in and out of order, virtual days, metrics).
const fixtureDirs = ['scenarios', 'metrics'].map((d) => join(root, 'test', 'fixtures', d));
const { workflow, scenarios } = load('order-payment');

const weftInProcess = (args: readonly string[]) => inProcess(args, REPO_ROOT);

describe('scenarios', () => {
  it('every example workflow ships scenarios', () => {
    expect(names.length).toBeGreaterThanOrEqual(6);
    for (const n of names) expect(load(n).scenarios.length, n).toBeGreaterThanOrEqual(8);
  });

  const all = [examples, ...fixtureDirs].flatMap((dir) =>
    namesIn(dir).flatMap((n) => {
      const { workflow: w, scenarios: list } = load(n, dir);
      return list.map((s) => [`${n}: ${s.name}`, w, s] as const);
    }),
  );
  it.each(all)('%s passes, and gives the same log twice, byte for byte', async (_name, w, scenario) => {
    const a = await runScenario(w, scenario);
    expect(a.error).toBeUndefined();
    expect(a.assertions.filter((x) => !x.ok)).toEqual([]);
    expect(a.passed).toBe(true);
    expect(a.assertions.length).toBeGreaterThan(0);
    const b = await runScenario(w, scenario);
    expect(JSON.stringify(b.events)).toBe(JSON.stringify(a.events));
    expect(b.events.length).toBeGreaterThan(0);
  });

  it('runs days of virtual time at once', async () => {
    const expired = scenarios.find((s) => s.name.startsWith('no payment'));
    const r = await runScenario(workflow, expired ?? (scenarios[0] as (typeof scenarios)[number]));
    expect(r.virtualMs).toBeGreaterThanOrEqual(3 * 24 * 3_600_000);
  });

  it('weft test exits 1 on a failed assertion and says which, with expected and actual', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-scenarios-'));
    writeFileSync(join(dir, 'order-payment.weft.json'), readFileSync(join(root, 'examples/order-payment.weft.json')));
    const wrong = { scenarios: [{ ...scenarios[0], name: 'expects the wrong end', expect: { state: 'failed', path: ['payment_timeout'] } }] };
    writeFileSync(join(dir, 'order-payment.scenarios.json'), JSON.stringify(wrong));
    const r = await runWeft(['test', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('0/1 scenarios passed');
    expect(r.stdout).toContain('FAIL "expects the wrong end"');
    expect(r.stdout).toContain('run state: expected "failed", got "succeeded"');
    expect(r.stdout).toContain('edge "payment_timeout" taken: expected true, got false');
    expect(r.stdout).toContain('the run took order_created > payment_received > payment_covers_total > fulfilled and ended succeeded');
  });

  it('weft test examples/ passes and prints, per workflow, scenarios passed and step and edge coverage', async () => {
    const r = await weftInProcess(['test', examples]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    for (const n of names) {
      const count = load(n).scenarios.length;
      expect(r.stdout).toMatch(new RegExp(`${n}\\.weft\\.json: ${count}/${count} scenarios passed; steps \\d+/\\d+ covered, edges \\d+/\\d+ covered`));
    }
    const json = await weftInProcess(['test', examples, '--json']);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as { workflows: { file: string; coverage: { steps: { covered: number; total: number; missing: string[] } } }[] };
    expect(report.workflows.map((w) => w.file.split('/').pop()).sort()).toEqual(names.map((n) => `${n}.weft.json`));
    for (const w of report.workflows) expect(w.coverage, w.file).toMatchObject({ steps: { missing: [] }, edges: { missing: [] } });
  });
});

describe('retry variants after a restart', () => {
  it('a rerun after a crash keeps the config of the interrupted attempt; real retries get variants 1, 2 in order', async () => {
    const agent = parseWorkflow(JSON.parse(readFileSync(join(root, 'examples/agent-escalation.weft.json'), 'utf8')));
    const good = { decision: 'refund', amount: 49.9, confidence: 0.9, rationale: 'No delivery scan after 14 days.' };
    const r = await runScenario(agent, {
      name: 'crash, then two 503s',
      input: { ticketId: 'T-1042', customerMessage: 'My parcel never arrived.', orderTotal: 49.9, currency: 'EUR' },
      // The interrupted attempt never reached the provider, so it takes no scripted outcome.
      steps: { propose: [{ fail: 'http_503' }, { fail: 'http_503' }, { succeed: good }] },
      crash: { afterEvent: 'attempt_started', step: 'propose' },
      decisions: [{ step: 'approve', atMs: 3_600_000, decision: 'approve' }],
      expect: { state: 'succeeded', steps: { propose: { attempts: 4 } } },
    });
    expect(r.assertions.filter((a) => !a.ok)).toEqual([]);
    const variants = r.events.filter((e) => e.type === 'attempt_started' && e.step === 'propose').map((e) => (e.data as { variant: number | null }).variant);
    expect(variants).toEqual([null, null, 0, 1]);
  });
});

describe('scenario features', () => {
  const trip = load('trip-saga');
  const booked = trip.scenarios[0] as (typeof trip.scenarios)[number];
  const carDown = trip.scenarios.find((s) => s.name.startsWith('the car rental stays unavailable')) as (typeof trip.scenarios)[number];

  it('a crash lands right after the commit holding the named event: what that tick launched never starts', async () => {
    const r = await runScenario(trip.workflow, { ...booked, name: 'crash at the flight', crash: { afterEvent: 'attempt_started', step: 'book_flight' }, expect: { state: 'needs_attention', steps: { book_flight: { state: 'unknown', outcome: 'unknown', attempts: 1 } }, neverRan: ['book_hotel'] } });
    expect(r.assertions.filter((a) => !a.ok)).toEqual([]);
    expect(r.crashed).toBe(true);
    expect(r.events.map((e) => e.type)).toEqual(['run_created', 'step_activated', 'attempt_started', 'engine_resumed', 'attempt_unknown', 'step_settled', 'step_escalated', 'run_state_changed']);
  });

  it('checks the order steps started in, and a step outcome, with expected and actual', async () => {
    const ok = await runScenario(trip.workflow, { ...carDown, expect: { order: ['book_car', 'cancel_hotel', 'cancel_flight'], steps: { book_car: { outcome: 'failed' } } } });
    expect(ok.assertions.filter((a) => !a.ok)).toEqual([]);
    const wrong = await runScenario(trip.workflow, { ...carDown, expect: { order: ['cancel_flight', 'cancel_hotel'], steps: { book_car: { outcome: 'timed_out' } } } });
    expect(wrong.passed).toBe(false);
    expect(wrong.assertions).toContainEqual({ what: 'steps started in the order cancel_flight, cancel_hotel', ok: false, expected: ['cancel_flight', 'cancel_hotel'], actual: ['cancel_hotel', 'cancel_flight'] });
    expect(wrong.assertions).toContainEqual({ what: 'outcome of "book_car"', ok: false, expected: 'timed_out', actual: 'failed' });
  });

  it('plays operator actions, and asserts that the engine refuses one that does not fit', async () => {
    const paid = scenarios[0] as (typeof scenarios)[number];
    const r = await runScenario(workflow, {
      ...paid,
      name: 'fulfilment is escalated, then retried by an operator',
      steps: { ...paid.steps, fulfil: [{ fail: 'http_503' }, { fail: 'http_503' }, { fail: 'http_503' }, { fail: 'http_503' }, { fail: 'http_503' }, { succeed: { status: 200, body: { orderId: 'A17', state: 'fulfilling' } } }] },
      operator: [
        { atMs: 7_200_000, action: 'skip', step: 'create_order', output: {}, refused: true },
        { atMs: 7_200_000, action: 'retry', step: 'fulfil', by: 'ops', reason: 'the warehouse is back' },
      ],
      expect: { state: 'succeeded', steps: { fulfil: { state: 'succeeded', attempts: 6 } }, path: ['fulfilled'] },
    });
    expect(r.assertions.filter((a) => !a.ok)).toEqual([]);
    expect(r.assertions.find((a) => a.what.startsWith('skip of "create_order"'))?.actual).toMatch(/^refused: /);
    expect(r.events.filter((e) => e.type === 'operator_action')).toHaveLength(1);
    const unexpected = await runScenario(workflow, { ...paid, name: 'a refused action that was not expected', operator: [{ atMs: 0, action: 'resolve', step: 'fulfil', as: 'succeeded' }], expect: { state: 'succeeded' } });
    expect(unexpected.passed).toBe(false);
    const refusal = unexpected.assertions.find((a) => !a.ok);
    expect(refusal).toMatchObject({ what: 'resolve of "fulfil" at 0 ms', expected: 'accepted' });
    expect(refusal?.actual).toMatch(/^refused: /);
    const noCrash = await runScenario(workflow, { ...paid, name: 'a crash point that never comes', crash: { afterEvent: 'step_escalated' }, expect: { state: 'succeeded' } });
    expect(noCrash.assertions).toContainEqual({ what: 'crash after step_escalated', ok: false, expected: 'the event to happen', actual: 'it never happened' });
  });
});
