// The scenario language's `revise` action, and the examples' promise (issue 9): every external
// step of every example has a scenario where a revision after its effect makes it wait for a
// decision, and one where an operator's decision (retry, keep or skip) then settles it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScenarioFile, type Scenario } from '../../shared/scenario/scenario-schema.ts';
import { runScenario } from '../../engine/scenario/run-scenario.ts';
import { parseWorkflow } from './harness.ts';

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
