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
import { REPO_ROOT } from '../cli/run-weft.ts';
import { parseWorkflow } from './harness.ts';

const root = join(import.meta.dirname, '..', '..');
const examples = join(root, 'examples');
// NAME.scenarios.json, then the files of a NAME.scenarios/ folder, as `weft test` finds them.
const scenarioFiles = (name: string, dir: string): string[] => {
  const folder = join(dir, `${name}.scenarios`);
  return [join(dir, `${name}.scenarios.json`), ...(existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.json')).sort().map((f) => join(folder, f)) : [])];
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
    const r = await weftInProcess(['test', dir]);
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
    const r = await runScenario(trip.workflow, { ...booked, name: 'crash at the flight', decisions: [], crash: { afterEvent: 'attempt_started', step: 'book_flight' }, expect: { state: 'needs_attention', steps: { book_flight: { state: 'unknown', outcome: 'unknown', attempts: 1 } }, neverRan: ['book_hotel'] } });
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

describe('scenario language: forks, retries with input, several runs, single attempts', () => {
  const agent = load('agent-escalation');
  const ticket = { ticketId: 'T-1042', customerMessage: 'My parcel never arrived.', orderTotal: 49.9, currency: 'EUR' };
  const good = { decision: 'refund', amount: 49.9, confidence: 0.9, rationale: 'No delivery scan after 14 days.' };
  const approve = [{ step: 'approve', atMs: 3_600_000, decision: 'approve' as const }];

  it('a scripted `cases` outcome sees the retry variant; attempts are asserted one by one', async () => {
    const r = await runScenario(agent.workflow, {
      name: 'only the fallback model answers',
      input: ticket,
      steps: { propose: [{ cases: [{ when: 'variant = 1', then: { succeed: good } }], else: { fail: 'http_503' } }] },
      decisions: approve,
      expect: {
        state: 'succeeded',
        attempts: [
          { step: 'propose', attempt: 1, variant: null, error: 'http_503', state: 'failed', startedAtMs: 0, input: { ticketId: 'T-1042', message: 'My parcel never arrived.', orderTotal: 49.9 } },
          { step: 'propose', attempt: 2, variant: 0, error: 'http_503' },
          { step: 'propose', attempt: 3, variant: 1, error: null, evidence: good, state: 'succeeded' },
        ],
      },
    });
    expect(r.assertions.filter((a) => !a.ok)).toEqual([]);
    expect(r.assertions.filter((a) => a.what.includes('attempt 1.'))).toHaveLength(11);
    const wrong = await runScenario(agent.workflow, {
      name: 'expects the wrong variant',
      input: ticket,
      steps: { propose: [{ cases: [{ when: 'variant = 1', then: { succeed: good } }], else: { fail: 'http_503' } }] },
      decisions: approve,
      expect: { attempts: [{ step: 'propose', attempt: 2, variant: 1, startedAtMs: 0 }, { step: 'propose', attempt: 4 }] },
    });
    expect(wrong.passed).toBe(false);
    expect(wrong.assertions).toContainEqual({ what: 'retry variant of attempt 1.2 of "propose"', ok: false, expected: 1, actual: 0 });
    expect(wrong.assertions.find((a) => a.what.startsWith('start time of attempt 1.2'))).toMatchObject({ ok: false, expected: 0 });
    expect(wrong.assertions).toContainEqual({ what: 'attempt 1.4 of "propose" started', ok: false, expected: true, actual: 'its attempts were 1.1, 1.2, 1.3' });
  });

  it('a call no case matches fails the scenario, naming what the call was given', async () => {
    const r = await runScenario(agent.workflow, {
      name: 'no case for the first attempt',
      input: ticket,
      steps: { propose: [{ cases: [{ when: 'variant = 1', then: { succeed: good } }] }] },
      expect: { state: 'needs_attention' },
    });
    expect(r.passed).toBe(false);
    expect(r.assertions).toContainEqual(expect.objectContaining({ what: 'scripted outcome of "propose" for call 1', ok: false, actual: { input: { ticketId: 'T-1042', message: 'My parcel never arrived.', orderTotal: 49.9 }, variant: null, attempt: 1, activation: 1 } }));
  });

  it('an operator retry with input runs a new activation with it; each activation settles with its own output', async () => {
    const other = { ...ticket, orderTotal: 20 };
    const r = await runScenario(agent.workflow, {
      name: 'escalated, retried with a corrected order total',
      input: ticket,
      steps: { propose: [{ cases: [{ when: 'input.orderTotal = 20', then: { succeed: { ...good, amount: 20 } } }], else: { fail: 'http_503' } }] },
      operator: [{ atMs: 600_000, action: 'retry', step: 'propose', input: other, by: 'ops' }],
      decisions: [{ step: 'approve', atMs: 3_600_000, decision: 'approve' }],
      expect: {
        state: 'succeeded',
        steps: { propose: { activations: [{ outcome: 'failed', output: null }, { outcome: 'succeeded', output: { ...good, amount: 20 } }] } },
        attempts: [{ step: 'propose', activation: 2, attempt: 1, input: other, variant: null, startedAtMs: 600_000, evidence: { ...good, amount: 20 } }],
      },
    });
    expect(r.assertions.filter((a) => !a.ok)).toEqual([]);
    expect(r.assertions.some((a) => a.what === 'output of activation 2 of "propose"')).toBe(true);
    const wrong = await runScenario(agent.workflow, { name: 'two activations expected, one happened', input: ticket, steps: { propose: [{ succeed: good }] }, decisions: approve, expect: { steps: { propose: { activations: [{ outcome: 'succeeded', output: null }, { outcome: 'failed' }] } } } });
    expect(wrong.assertions).toContainEqual({ what: 'activations of "propose" that settled', ok: false, expected: 2, actual: 1 });
    expect(wrong.assertions).toContainEqual({ what: 'output of activation 1 of "propose"', ok: false, expected: null, actual: good });
    expect(wrong.assertions).toContainEqual({ what: 'outcome of activation 2 of "propose"', ok: false, expected: 'failed', actual: 'never settled' });
  });

  it('forks a run from a step: the fork imports the evidence before it and has its own expectations and script', async () => {
    const trip = load('trip-saga');
    const carDown = trip.scenarios.find((s) => s.name.startsWith('the car rental stays unavailable')) as (typeof trip.scenarios)[number];
    const booked = trip.scenarios[0] as (typeof trip.scenarios)[number];
    const r = await runScenario(trip.workflow, {
      ...carDown,
      name: 'the car fails; a fork from book_car, whose cancelled bookings an operator books again, where the car and the trip desk answer books the trip',
      operator: [
        { atMs: 86_400_000, action: 'fork', from: 'book_car', name: 'retake', steps: { book_car: booked.steps?.book_car ?? [], quote_trip: booked.steps?.quote_trip ?? [], confirm_trip: booked.steps?.confirm_trip ?? [] } },
        // The first run cancelled both bookings: the fork holds each for a decision (onRevise ask).
        { atMs: 86_460_000, action: 'retry', step: 'book_flight', run: 'retake' },
        { atMs: 86_520_000, action: 'retry', step: 'book_hotel', run: 'retake' },
      ],
      // The traveller confirms the fork's quote.
      decisions: [{ step: 'traveller_confirms', atMs: 86_600_000, decision: 'approve', run: 'retake' }],
      expect: {
        state: 'failed',
        runs: { retake: { state: 'succeeded', steps: { book_flight: { attempts: 1 }, book_hotel: { attempts: 1 }, book_car: { attempts: 1 } }, neverRan: ['cancel_flight', 'cancel_hotel'] } },
      },
    });
    expect(r.assertions.filter((a) => !a.ok)).toEqual([]);
    expect(r.runs.map((x) => x.name)).toEqual(['main', 'retake']);
    expect(r.assertions.some((a) => a.what.startsWith('run "retake": state of "book_car"') || a.what.startsWith('run "retake": attempts of "book_car"'))).toBe(true);
    const forked = r.events.find((e) => e.type === 'run_created' && (e.data as { forkOf?: unknown }).forkOf !== undefined);
    expect(forked?.data).toMatchObject({ forkOf: { fromStep: 'book_car' } });
    const early = await runScenario(trip.workflow, { ...carDown, name: 'an action on a fork before it exists', operator: [{ atMs: 0, action: 'cancel', run: 'later' }, { atMs: 1000, action: 'fork', from: 'book_car', name: 'later' }], expect: { state: 'failed' } });
    expect(early.assertions).toContainEqual({ what: 'run "later": cancel at 0 ms', ok: false, expected: 'accepted', actual: 'refused: run "later" has not started yet' });
  });

  it('several runs share a resource pool: never more attempts at once than its limit, and a later run waits for a slot', async () => {
    const research = load('parallel-research');
    const base = research.scenarios[0] as (typeof research.scenarios)[number];
    const slow = Object.fromEntries(['web', 'papers', 'forums'].map((id) => [id, (base.steps?.[id] ?? []).map((o) => ({ ...o, takeMs: 10_000 }))]));
    const r = await runScenario(research.workflow, {
      ...base,
      name: 'two questions at once',
      steps: { ...base.steps, ...slow },
      runs: [{ name: 'second', atMs: 0, input: base.input }],
      expect: { state: 'succeeded', maxInUse: { llm: 3 }, runs: { second: { state: 'succeeded' } }, runOrder: ['main', 'second'], maxParallelRuns: 2 },
    });
    expect(r.assertions.filter((a) => !a.ok)).toEqual([]);
    expect(new Set(r.events.map((e) => e.runId)).size).toBe(2);
    const wrong = await runScenario(research.workflow, { ...base, name: 'claims 2', steps: { ...base.steps, ...slow }, runs: [{ name: 'second', input: base.input }], expect: { maxInUse: { llm: 2 } } });
    expect(wrong.assertions).toContainEqual({ what: 'most attempts on resource "llm" at once', ok: false, expected: 2, actual: 3 });
  });

  it('limits.maxParallelRuns queues runs, and the queue is asserted across runs (fixture queued-runs)', async () => {
    const q = load('queued-runs', fixtureDirs[0]);
    for (const s of q.scenarios) {
      const r = await runScenario(q.workflow, s);
      expect(r.assertions.filter((a) => !a.ok), s.name).toEqual([]);
      expect(r.assertions.some((a) => a.what === 'runs queued for a run slot, in order')).toBe(true);
    }
    const first = q.scenarios[0] as (typeof q.scenarios)[number];
    const wrong = await runScenario(q.workflow, { ...first, expect: { maxParallelRuns: 2, queued: ['low'], runOrder: ['main', 'low', 'high'] } });
    expect(wrong.assertions).toContainEqual({ what: 'most runs holding a run slot at once', ok: false, expected: 2, actual: 1 });
    expect(wrong.assertions).toContainEqual({ what: 'runs queued for a run slot, in order', ok: false, expected: ['low'], actual: ['low', 'high'] });
    expect(wrong.assertions).toContainEqual({ what: 'runs in the order they got a run slot', ok: false, expected: ['main', 'low', 'high'], actual: ['main', 'high', 'low'] });
  });

  it('refuses bad scenarios with the JSON path: a fork without from or name, an unknown run, a when that is not JSONata', () => {
    const bad = (scenario: unknown): string => {
      const r = ScenarioFile.safeParse({ scenarios: [scenario] });
      return r.success ? 'valid' : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n');
    };
    expect(bad({ name: 'f', operator: [{ atMs: 0, action: 'fork' }], expect: {} })).toMatch(/scenarios\.0\.operator\.0\.from: a fork needs "from"[\s\S]*scenarios\.0\.operator\.0\.name: a fork needs "name"/);
    expect(bad({ name: 'r', expect: { runs: { nope: {} } } })).toContain('scenarios.0.expect.runs.nope: no run named "nope" in this scenario; its runs are main');
    expect(bad({ name: 'd', runs: [{ name: 'main' }], expect: {} })).toContain('scenarios.0.runs.0.name: the run name "main" is taken');
    expect(bad({ name: 'w', steps: { a: [{ cases: [{ when: 'variant = = 1', then: { succeed: 1 } }] }] }, expect: {} })).toMatch(/^scenarios\.0\.steps\.a\.0/);
    expect(bad({ name: 's', operator: [{ atMs: 0, action: 'retry', step: 'a', from: 'b' }], expect: {} })).toContain('scenarios.0.operator.0.from: "from" is for fork only, not retry');
    expect(bad({ name: 'ok', runs: [{ name: 'b' }], operator: [{ atMs: 0, action: 'fork', from: 'a', name: 'c', run: 'b' }], expect: { runs: { b: {}, c: {} }, queued: ['c'] } })).toBe('valid');
  });
});
