// The scenario language's `revise` action, and the examples' promise (issue 9): every external
// step of every example has a scenario where a revision after its effect makes it wait for a
// decision, and one where an operator's decision (retry, keep or skip) then settles it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Scenario, ScenarioFile } from '../../shared/scenario/scenario-schema.ts';
import { runScenario } from '../../engine/scenario/run-scenario.ts';
import { end, parseWorkflow, wf } from './harness.ts';

const examples = join(import.meta.dirname, '..', '..', 'examples');
const names = readdirSync(examples).filter((f) => f.endsWith('.weft.json')).map((f) => f.slice(0, -'.weft.json'.length)).sort();

/** NAME.scenarios.json and NAME.scenarios/*.json, as `weft test` reads them. */
function scenariosOf(name: string): Scenario[] {
  const files = [join(examples, `${name}.scenarios.json`)].filter((f) => existsSync(f));
  const dir = join(examples, `${name}.scenarios`);
  if (existsSync(dir)) files.push(...readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => join(dir, f)));
  return files.flatMap((f) => ScenarioFile.parse(JSON.parse(readFileSync(f, 'utf8'))).scenarios);
}

const load = (name: string) => parseWorkflow(JSON.parse(readFileSync(join(examples, `${name}.weft.json`), 'utf8')));

describe('revise in scenarios', () => {
  it.each(names)('%s: every external step waits for a decision after a revision, and an operator settles it', async (name) => {
    const workflow = load(name);
    const external = workflow.steps.filter((s) => s.effect === 'external').map((s) => s.id);
    const held = new Set<string>();
    const decided = new Set<string>();
    for (const scenario of scenariosOf(name).filter((s) => (s.revise ?? []).length > 0)) {
      const r = await runScenario(workflow, scenario);
      expect(r.passed, `${scenario.name}: ${JSON.stringify(r.assertions.filter((a) => !a.ok))} ${r.error ?? ''}`).toBe(true);
      const again = await runScenario(workflow, scenario);
      expect(JSON.stringify(again.events)).toBe(JSON.stringify(r.events));
      for (const [i, e] of r.events.entries()) {
        if (e.type !== 'revision_held' || e.step === null) continue;
        held.add(e.step);
        // Settled later by an operator's decision: an operator_action on it, then a step_settled.
        const rest = r.events.slice(i + 1);
        const act = rest.findIndex((x) => x.type === 'operator_action' && x.step === e.step && ['retry', 'keep', 'skip'].includes((x.data as { action: string }).action));
        if (act >= 0 && rest.slice(act).some((x) => x.type === 'step_settled' && x.step === e.step && (x.data as { outcome: string }).outcome === 'succeeded')) decided.add(e.step);
      }
    }
    expect([...held].sort()).toEqual([...external].sort());
    expect([...decided].sort()).toEqual([...external].sort());
  });

  it('refuses a revision whose input does not fit the input schema, and asserts it', async () => {
    const workflow = load('order-payment');
    const [normal] = scenariosOf('order-payment');
    if (normal === undefined) throw new Error('order-payment has no scenarios');
    const refused = await runScenario(workflow, { ...normal, revise: [{ atMs: 7_200_000, input: { orderId: 'A17' }, refused: true }] });
    expect(refused.passed).toBe(true);
    expect(refused.assertions.find((a) => a.what === 'revision at 7200000 ms refused')?.actual).toMatch(/does not match the input schema of workflow "order-payment"/);
    expect(refused.events.some((e) => e.type === 'run_input_revised')).toBe(false);
    // Not expected to be refused: the scenario fails, naming it.
    const failed = await runScenario(workflow, { ...normal, revise: [{ atMs: 7_200_000, input: { orderId: 'A17' } }] });
    expect(failed.passed).toBe(false);
    expect(failed.assertions.find((a) => !a.ok)?.what).toBe('revision at 7200000 ms');
  });
});

// A quote sent by a scripted HTTP call, priced from the input: for `revise` and forks on named runs.
const quote = parseWorkflow(wf('quote', [
  { id: 'price', kind: 'transform', config: { expression: '{"cents": input.qty * 250}' } },
  { id: 'send_quote', kind: 'http', effect: 'external', onExhausted: 'escalate', input: 'steps.price.output', config: { method: 'POST', url: 'https://quotes.test/send', body: 'input' } },
  end(),
], [{ id: 'priced', from: 'price', to: 'send_quote' }, { id: 'quoted', from: 'send_quote', to: 'done' }], { input: { type: 'object', properties: { qty: { type: 'number' } }, required: ['qty'] } }));
const sent = { send_quote: [{ succeed: { status: 200, body: { sent: true } }, takeMs: 100 }] };
const heldIn = (r: Awaited<ReturnType<typeof runScenario>>, runId: string | undefined): string[] =>
  r.events.filter((e) => e.type === 'revision_held' && e.runId === runId).map((e) => e.step ?? '');

describe('revise on a named run', () => {
  it('"run" names the run revised (of runs, or a fork), and an operator settles it there', async () => {
    const scenario = Scenario.parse({
      name: 'the second run is revised after its quote went out; the fork from done with another input holds its quote too',
      input: { qty: 2 },
      steps: sent,
      runs: [{ name: 'second', atMs: 0, input: { qty: 4 } }],
      revise: [{ atMs: 60_000, run: 'second', input: { qty: 5 } }],
      operator: [
        { atMs: 120_000, action: 'keep', step: 'send_quote', run: 'second' },
        { atMs: 180_000, action: 'fork', from: 'done', name: 'retake', input: { qty: 3 } },
        { atMs: 240_000, action: 'retry', step: 'send_quote', run: 'retake' },
      ],
      expect: {
        state: 'succeeded',
        steps: { send_quote: { attempts: 1 } },
        runs: {
          second: { state: 'succeeded', steps: { send_quote: { attempts: 1, output: { status: 200, body: { sent: true } } }, price: { output: { cents: 1250 } } } },
          retake: { state: 'succeeded', steps: { send_quote: { attempts: 1 }, price: { output: { cents: 750 } } } },
        },
      },
    });
    const r = await runScenario(quote, scenario);
    expect(r.passed, JSON.stringify(r.assertions.filter((a) => !a.ok))).toBe(true);
    const id = (name: string): string | undefined => r.runs.find((x) => x.name === name)?.runId;
    expect(heldIn(r, id('main'))).toEqual([]);
    expect(heldIn(r, id('second'))).toEqual(['send_quote']);
    expect(heldIn(r, id('retake'))).toEqual(['send_quote']);
  });

  it('refuses a revision of a run that has not started yet, and a "run" that names no run is an invalid file', async () => {
    const base = { name: 'early', input: { qty: 2 }, steps: sent, runs: [{ name: 'later', atMs: 10_000, input: { qty: 4 } }], expect: { state: 'succeeded' } };
    const r = await runScenario(quote, Scenario.parse({ ...base, revise: [{ atMs: 1_000, run: 'later', input: { qty: 5 }, refused: true }] }));
    expect(r.passed, JSON.stringify(r.assertions.filter((a) => !a.ok))).toBe(true);
    expect(r.assertions.find((a) => a.what === 'run "later": revision at 1000 ms refused')?.actual).toMatch(/run "later" has not started yet/);
    const bad = ScenarioFile.safeParse({ scenarios: [{ ...base, revise: [{ atMs: 1_000, run: 'nope', input: { qty: 5 } }] }] });
    expect(bad.error?.issues[0]?.path).toEqual(['scenarios', 0, 'revise', 0, 'run']);
    expect(bad.error?.issues[0]?.message).toMatch(/no run named "nope" in this scenario; its runs are main, later/);
  });
});
