// Choosing an agent's executor at run time (docs/routing.md), in virtual time: the fixture's
// scenarios (test/fixtures/scenarios/agent-routing.*) pass; a wrong expectation of the chosen
// candidate fails naming it; and the circuits of one engine are shared by its runs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScenarioFile } from '../../shared/scenario/scenario-schema.ts';
import { runScenario } from '../../engine/scenario/run-scenario.ts';
import { parseWorkflow } from './harness.ts';

const dir = join(import.meta.dirname, '..', 'fixtures', 'scenarios');
const workflow = parseWorkflow(JSON.parse(readFileSync(join(dir, 'agent-routing.weft.json'), 'utf8')));
const scenarios = ScenarioFile.parse(JSON.parse(readFileSync(join(dir, 'agent-routing.scenarios.json'), 'utf8'))).scenarios;

describe('agent routing scenarios', () => {
  it.each(scenarios.map((s) => [s.name, s] as const))('%s', async (_name, scenario) => {
    const r = await runScenario(workflow, scenario);
    expect(r.error).toBeUndefined();
    expect(r.assertions.filter((a) => !a.ok)).toEqual([]);
    expect(r.passed).toBe(true);
  });
});

describe('agent routing assertions', () => {
  it('a wrong expected candidate or reason fails, naming the attempt, what was expected and what ran', async () => {
    const first = scenarios[0];
    if (first === undefined) throw new Error('the fixture has scenarios');
    const wrong = { ...first, expect: { ...first.expect, attempts: [{ step: 'answer', attempt: 1, candidate: 'large', passedOver: { small: 'circuit_open' as const } }] } };
    const r = await runScenario(workflow, wrong);
    expect(r.passed).toBe(false);
    expect(r.assertions.filter((a) => !a.ok)).toEqual([
      { what: 'candidate of attempt 1.1 of "answer"', ok: false, expected: 'large', actual: 'small' },
      { what: 'candidates passed over by attempt 1.1 of "answer"', ok: false, expected: { small: 'circuit_open' }, actual: { legal: 'later', large: 'later' } },
    ]);
  });

  it('records the route on attempt_started: each candidate with its circuit, and why the others were passed over', async () => {
    const circuit = scenarios[3];
    if (circuit === undefined) throw new Error('the fixture has a circuit scenario');
    const r = await runScenario(workflow, circuit);
    const third = r.events.filter((e) => e.type === 'attempt_started' && e.step === 'answer').map((e) => (e.type === 'attempt_started' ? e.data.route : undefined))[2];
    expect(third).toMatchObject({
      chosen: 'legal',
      order: 'cheapest',
      wantedTags: ['billing'],
      candidates: [
        { id: 'small', circuit: 'open', passedOver: 'circuit_open' },
        { id: 'legal', circuit: 'closed', baseUrl: 'http://legal-models.example/v1' },
        { id: 'large', circuit: 'closed', passedOver: 'later' },
      ],
    });
    expect(third?.candidates[0]?.why).toMatch(/^its circuit is open after 2 provider failures in a row, until /);
  });
});
