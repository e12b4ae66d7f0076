// Handoff records (docs/long-running.md, "Handoff records"), in virtual time through the scenario
// runner: a giving step's record reaches the receiving step's input under `handoff`; a missing
// or malformed record breaks the giving step's output contract (invalid_output, retried like any
// invalid output); a receiving step whose input cannot hold the record fails with input_error;
// a revision that changes the record runs the receiver again. The model is told about the record.
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../shared/scenario/scenario-schema.ts';
import type { Step } from '../../shared/definition/workflow-schema.ts';
import { runScenario } from '../../engine/scenario/run-scenario.ts';
import { agentRequest } from '../../engine/executors/agent/agent-request.ts';
import { expressionsOver } from '../../engine/runtime/expressions.ts';
import { validateWorkflow } from '../../shared/validator/validate-workflow.ts';
import { end, parseWorkflow, wf } from './harness.ts';

const record = { completed: ['read the ticket', 'found the order'], next: 'refund the order', constraints: ['at most 50 EUR'], refs: [{ title: 'order A17', step: 'research' }, 'https://example.org/policy'] };

const workflow = (draft: Record<string, unknown> = {}) =>
  parseWorkflow(wf('handover', [
    { id: 'research', kind: 'agent', handoff: true, input: 'input', retry: { maxAttempts: 2 }, config: { provider: 'mock', prompt: 'Look into {{ input.ticket }}', mock: { replies: [{ output: { order: 'A17', handoff: record } }] } }, output: { type: 'object', required: ['order'], properties: { order: { type: 'string' } } } },
    { id: 'draft', kind: 'agent', handoffFrom: 'research', input: '{ "order": steps.research.output.order }', config: { provider: 'mock', prompt: 'Act on it', mock: { replies: [{ output: { done: true } }] } }, ...draft },
    end(),
  ], [{ id: 'r_d', from: 'research', to: 'draft' }, { id: 'd_done', from: 'draft', to: 'done' }], { input: { type: 'object', properties: { ticket: { type: 'string' } } } }));

const scenario = (research: Scenario['steps'] extends infer S ? S extends Record<string, infer A> ? A : never : never, expect: Scenario['expect'], more: Partial<Scenario> = {}): Scenario => ({
  name: 'handover',
  input: { ticket: 'T-1' },
  steps: { research, draft: [{ succeed: { done: true } }] },
  expect,
  ...more,
});

describe('handoff records', () => {
  it('the giving step\'s record reaches the receiving step\'s input under "handoff", and is evidence of the giving step', async () => {
    const w = workflow();
    expect(validateWorkflow(w).filter((d) => d.severity === 'error')).toEqual([]);
    const r = await runScenario(w, scenario([{ succeed: { order: 'A17', handoff: record }, takeMs: 60_000 }], {
      state: 'succeeded',
      steps: { research: { state: 'succeeded', attempts: 1, output: { order: 'A17', handoff: record } } },
      attempts: [{ step: 'draft', attempt: 1, input: { order: 'A17', handoff: record }, startedAtMs: 60_000 }],
    }));
    expect(r.passed, JSON.stringify(r.assertions.filter((a) => !a.ok))).toBe(true);
    const settled = r.events.find((e) => e.type === 'attempt_succeeded' && e.step === 'research');
    expect(settled?.data).toMatchObject({ output: { handoff: record } });
  });

  it.each([
    ['no record at all', { order: 'A17' }, /must have required property 'handoff'/],
    ['a record without "next"', { order: 'A17', handoff: { completed: 'read the ticket' } }, /\/handoff must have required property 'next'/],
    ['an empty "completed" list', { order: 'A17', handoff: { completed: [], next: 'refund' } }, /\/handoff\/completed/],
    ['an unknown key in the record', { order: 'A17', handoff: { completed: 'x', next: 'y', mood: 'good' } }, /\/handoff must NOT have additional properties/],
  ])('%s breaks the output contract: invalid_output, retried, and the valid retry hands over', async (_what, bad, message) => {
    const r = await runScenario(workflow(), scenario([{ succeed: bad }, { succeed: { order: 'A17', handoff: record } }], {
      state: 'succeeded',
      steps: { research: { state: 'succeeded', attempts: 2 } },
      attempts: [
        { step: 'research', attempt: 1, error: 'invalid_output', evidence: bad },
        { step: 'draft', attempt: 1, input: { order: 'A17', handoff: record } },
      ],
    }));
    expect(r.passed, JSON.stringify(r.assertions.filter((a) => !a.ok))).toBe(true);
    const failed = r.events.find((e) => e.type === 'attempt_failed' && e.step === 'research');
    expect((failed?.data as { error: { message: string } }).error.message).toMatch(message);
  });

  it('a giving step that never gives a valid record fails, and the receiving step never starts', async () => {
    const r = await runScenario(workflow(), scenario([{ succeed: { order: 'A17' } }], {
      state: 'failed',
      steps: { research: { state: 'failed', attempts: 2 } },
      neverRan: ['draft'],
    }));
    expect(r.passed, JSON.stringify(r.assertions.filter((a) => !a.ok))).toBe(true);
  });

  it('a receiving step whose input is not an object fails with input_error, saying how to fix it', async () => {
    const r = await runScenario(workflow({ input: 'steps.research.output.order' }), scenario([{ succeed: { order: 'A17', handoff: record } }], {
      state: 'failed',
      attempts: [{ step: 'draft', attempt: 1, error: 'input_error' }],
    }));
    expect(r.passed, JSON.stringify(r.assertions.filter((a) => !a.ok))).toBe(true);
    const failed = r.events.find((e) => e.type === 'attempt_failed' && e.step === 'draft');
    expect((failed?.data as { error: { message: string } }).error.message).toBe('step "draft" receives the handoff of "research" under the "handoff" key of its input, but its input is a string; make its "input" expression give an object');
  });

  it('without an input expression, the receiving step gets the run input with the record', async () => {
    const w = workflow();
    const draft = w.steps.find((s) => s.id === 'draft') as Step;
    delete draft.input;
    const r = await runScenario(w, scenario([{ succeed: { order: 'A17', handoff: record } }], {
      state: 'succeeded',
      attempts: [{ step: 'draft', attempt: 1, input: { ticket: 'T-1', handoff: record } }],
    }));
    expect(r.passed, JSON.stringify(r.assertions.filter((a) => !a.ok))).toBe(true);
  });

  it('a revision whose new input changes the record runs the receiving step again with the new record', async () => {
    const later = { ...record, next: 'refund half the order' };
    const r = await runScenario(workflow(), scenario([
      { cases: [
        { when: 'input.ticket = "T-1"', then: { succeed: { order: 'A17', handoff: record } } },
        { when: 'input.ticket = "T-2"', then: { succeed: { order: 'A17', handoff: later } } },
      ] },
    ], {
      state: 'succeeded',
      attempts: [
        { step: 'draft', attempt: 1, input: { order: 'A17', handoff: record } },
        { step: 'draft', activation: 2, attempt: 1, input: { order: 'A17', handoff: later } },
      ],
    }, { revise: [{ atMs: 3_600_000, input: { ticket: 'T-2' } }] }));
    expect(r.passed, JSON.stringify(r.assertions.filter((a) => !a.ok))).toBe(true);
  });

  it('tells the model of a giving agent step about the record, and shows a receiving one its record', async () => {
    const w = workflow();
    const [research, draft] = w.steps as [Step, Step];
    const ctx = (step: Step, input: unknown) => ({
      runId: 'r', stepId: step.id, activation: 1, attempt: 1, input, config: {}, step, idempotencyKey: undefined,
      signal: new AbortController().signal, workspaceDir: '.', expressions: expressionsOver({ input: { ticket: 'T-1' }, steps: {}, run: {} }),
    });
    const giving = await agentRequest(ctx(research, { ticket: 'T-1' }), { provider: 'mock', prompt: 'Look into {{ input.ticket }}' }, 'mock');
    expect(giving.ok && giving.request.system).toMatch(/"handoff" key for the step after you: \{"completed"/);
    const noInput = { ...draft };
    delete noInput.input;
    const receiving = await agentRequest(ctx(noInput, { ticket: 'T-1', secret: 'x', handoff: record }), { provider: 'mock', prompt: 'Act on it' }, 'mock');
    expect(receiving.ok && receiving.request.prompt).toBe(`Act on it\n\nInput:\n${JSON.stringify({ handoff: record })}`);
  });
});
