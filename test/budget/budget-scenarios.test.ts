// Budgets in scenario tests (docs/budgets.md), on the real engine in virtual time: a run's budget
// from the definition, the start and the policy (the smallest applies), a step stopped before it
// starts (`budget_exceeded`: its executor is never called) and routed to a person or a cheaper
// path, daily budgets per workflow and per workspace that make a run wait for the next UTC day
// (also across an engine crash) or refuse it. Costs come from the scripts (`cost` on an outcome),
// recorded by the engine as it records priced costs.
import { describe, expect, it } from 'vitest';
import { runScenario, type ScenarioResult } from '../../engine/scenario/run-scenario.ts';
import { Scenario } from '../../shared/scenario/scenario-schema.ts';
import { parseWorkflow } from '../engine/harness.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';

const DAY = 86_400_000;
const http = (id: string) => ({ id, kind: 'http', config: { method: 'POST', url: `https://api.example/${id}` }, output: { type: 'object', properties: { text: { type: 'string' } } } });

/** draft → polish → done: two billed calls. `extra` adds steps and edges (routes of budget_exceeded). */
function flow(o: { budget?: number; steps?: unknown[]; edges?: unknown[]; retries?: boolean } = {}): Workflow {
  return parseWorkflow({
    format: 'weft/v1', id: 'pay-flow', version: 1, name: 'Pay flow',
    ...(o.budget === undefined ? {} : { limits: { budget: o.budget } }),
    steps: [http('draft'), { ...http('polish'), ...(o.retries === true ? { retry: { maxAttempts: 3, initialIntervalMs: 1_000 } } : {}) }, { id: 'done', kind: 'end' }, ...(o.steps ?? [])],
    edges: [{ id: 'drafted', from: 'draft', to: 'polish' }, { id: 'polished', from: 'polish', to: 'done' }, ...(o.edges ?? [])],
  });
}

const policy = (budgets: Record<string, unknown>) => ({ format: 'weft-policy/v1', budgets });

async function passes(workflow: Workflow, scenario: unknown): Promise<ScenarioResult> {
  const r = await runScenario(workflow, Scenario.parse(scenario));
  expect(r.error, r.error).toBeUndefined();
  expect(r.assertions.filter((a) => !a.ok)).toEqual([]);
  expect(r.passed).toBe(true);
  return r;
}

/** The reason the run failed with (its run_failing event). */
const failingReason = (r: ScenarioResult): string => r.events.find((e) => e.type === 'run_failing')?.reason ?? '';
const settledReason = (r: ScenarioResult, step: string): string => r.events.find((e) => e.type === 'step_settled' && e.step === step)?.reason ?? '';

describe('a run budget', () => {
  it("from the definition: a step whose estimate (its last attempt) would pass it does not start, and the run fails naming the budget", async () => {
    const r = await passes(flow({ budget: 0.5, retries: true }), {
      name: 'definition budget',
      steps: {
        draft: [{ succeed: { text: 'v1' }, cost: 0.3 }],
        polish: [{ fail: 'rate_limited', cost: 0.15 }, { succeed: { text: 'v2' }, cost: 0.15 }],
      },
      expect: { state: 'failed', steps: { polish: { outcome: 'budget_exceeded', state: 'failed', attempts: 1 } } },
    });
    // The retry was never called: one scripted call of polish, none after the budget stopped it.
    expect(r.events.filter((e) => e.type === 'attempt_started' && e.step === 'polish')).toHaveLength(1);
    expect(settledReason(r, 'polish')).toBe("the run has spent $0.45 of the definition's limits.budget ($0.50); the step's estimate (its last attempt) of $0.15 would exceed it");
    expect(failingReason(r)).toContain('step "polish" budget_exceeded');
    expect(failingReason(r)).toContain("limits.budget ($0.50)");
  });

  it("from the start, when it is smaller than the definition's: a run that has spent it starts nothing more", async () => {
    const r = await passes(flow({ budget: 1 }), {
      name: 'start budget',
      budget: 0.3,
      steps: { draft: [{ succeed: { text: 'v1' }, cost: 0.3 }], polish: [{ succeed: { text: 'v2' }, cost: 0.1 }] },
      expect: { state: 'failed', steps: { draft: { outcome: 'succeeded' }, polish: { outcome: 'budget_exceeded', attempts: 0 } }, neverRan: ['polish'] },
    });
    expect(settledReason(r, 'polish')).toBe("the run has spent $0.30, all of the start's budget ($0.30)");
  });

  it("from the policy's perRun, in the policy's currency; an unknown estimate (a first call) lets a step start", async () => {
    const r = await passes(flow({ budget: 5 }), {
      name: 'policy perRun',
      policy: policy({ currency: 'EUR', perRun: 0.2 }),
      budget: 1,
      steps: { draft: [{ succeed: { text: 'v1' }, cost: 0.25 }], polish: [{ succeed: { text: 'v2' } }] },
      expect: { state: 'failed', steps: { draft: { outcome: 'succeeded' }, polish: { outcome: 'budget_exceeded' } }, neverRan: ['polish'] },
    });
    expect(settledReason(r, 'polish')).toBe("the run has spent EUR 0.25, all of the policy's budgets.perRun (EUR 0.20)");
  });

  it('a run within its budget runs to the end', async () => {
    await passes(flow({ budget: 1 }), {
      name: 'within budget',
      steps: { draft: [{ succeed: { text: 'v1' }, cost: 0.3 }], polish: [{ succeed: { text: 'v2' }, cost: 0.3 }] },
      expect: { state: 'succeeded', steps: { polish: { outcome: 'succeeded' } } },
    });
  });
});

describe('compensation under a budget', () => {
  it('a compensation runs even when the budget is spent: offsetting an effect is not saved on', async () => {
    const workflow = parseWorkflow({
      format: 'weft/v1', id: 'pay-flow', version: 1, name: 'Pay flow', limits: { budget: 0.5 },
      steps: [
        { ...http('charge'), effect: 'external', idempotencyKey: '"charge-1"', compensation: 'refund', onExhausted: 'escalate' },
        http('polish'),
        { ...http('refund'), effect: 'idempotent', onExhausted: 'escalate' },
        { id: 'done', kind: 'end' },
      ],
      edges: [{ id: 'charged', from: 'charge', to: 'polish' }, { id: 'polished', from: 'polish', to: 'done' }],
    });
    const r = await passes(workflow, {
      name: 'compensation runs',
      steps: { charge: [{ succeed: { text: 'paid' }, cost: 0.5 }], polish: [{ succeed: { text: 'v2' } }], refund: [{ succeed: { text: 'refunded' }, cost: 0.1 }] },
      expect: { state: 'failed', neverRan: ['polish'], steps: { polish: { outcome: 'budget_exceeded' }, refund: { outcome: 'succeeded' }, charge: { state: 'compensated' } } },
    });
    expect(r.events.filter((e) => e.type === 'attempt_started' && e.step === 'refund')).toHaveLength(1);
  });
});

describe('budget_exceeded, routed', () => {
  it('to a person, who decides in the scenario; the stopped step is never called', async () => {
    const workflow = flow({
      budget: 0.3,
      steps: [{ id: 'ask_budget', kind: 'human', config: { task: 'approve', title: 'The run is out of budget: finish without polishing?' }, deadlineMs: DAY }],
      edges: [{ id: 'over_budget', from: 'polish', to: 'ask_budget', on: 'budget_exceeded' }, { id: 'accepted', from: 'ask_budget', to: 'done' }],
    });
    const r = await passes(workflow, {
      name: 'to a person',
      steps: { draft: [{ succeed: { text: 'v1' }, cost: 0.3 }], polish: [{ succeed: { text: 'v2' }, cost: 0.1 }] },
      decisions: [{ step: 'ask_budget', atMs: 60_000, decision: 'approve', by: 'finance' }],
      expect: { state: 'succeeded', path: ['over_budget', 'accepted'], notTaken: ['polished'], neverRan: ['polish'], steps: { polish: { outcome: 'budget_exceeded' }, ask_budget: { outcome: 'succeeded' } } },
    });
    expect(r.events.some((e) => e.type === 'task_opened' && e.step === 'ask_budget')).toBe(true);
  });

  it('to a cheaper path', async () => {
    const workflow = flow({
      budget: 0.5,
      steps: [{ id: 'plain', kind: 'transform', config: { expression: '{"text": steps.draft.output.text}' } }],
      edges: [{ id: 'too_dear', from: 'polish', to: 'plain', on: 'budget_exceeded' }, { id: 'plained', from: 'plain', to: 'done' }],
    });
    await passes(workflow, {
      name: 'cheaper path',
      steps: { draft: [{ succeed: { text: 'v1' }, cost: 0.5 }], polish: [{ succeed: { text: 'v2' }, cost: 0.2 }] },
      expect: { state: 'succeeded', path: ['too_dear', 'plained'], neverRan: ['polish'], steps: { plain: { output: { text: 'v1' } } } },
    });
  });
});

const spendy = { draft: [{ succeed: { text: 'v1' }, cost: 0.6 }], polish: [{ succeed: { text: 'v2' }, cost: 0.6 }] };

describe('daily budgets', () => {
  it("per workflow: a run started after the day's budget is spent waits for the next UTC day, then runs", async () => {
    const r = await passes(flow(), {
      name: 'workflow per day',
      policy: policy({ perWorkflowPerDay: { '*': 100, 'pay-flow': 1 } }),
      steps: spendy,
      runs: [{ name: 'second', atMs: 60_000 }],
      expect: {
        state: 'succeeded',
        waitedForBudget: ['second'],
        runs: { second: { state: 'succeeded', attempts: [{ step: 'draft', attempt: 1, startedAtMs: DAY }] } },
      },
    });
    const second = r.runs.find((x) => x.name === 'second')?.runId;
    const queued = r.events.find((e) => e.runId === second && e.type === 'run_queued');
    expect(queued?.reason).toBe('waiting for budget: runs of "pay-flow" have spent $1.20 on 2026-01-01 (UTC), all of the policy\'s budgets.perWorkflowPerDay["pay-flow"] ($1.00); the run starts when the next day begins (2026-01-02T00:00:00.000Z)');
    expect(r.events.find((e) => e.runId === second && e.type === 'run_state_changed')?.data).toEqual({ state: 'waiting' });
  });

  it('per workspace: every run of the store counts; a run under the day\'s budget starts at once', async () => {
    await passes(flow(), {
      name: 'workspace per day',
      policy: policy({ perWorkspacePerDay: 2 }),
      steps: spendy,
      runs: [{ name: 'second', atMs: 60_000 }, { name: 'third', atMs: 120_000 }],
      expect: {
        waitedForBudget: ['third'],
        runs: {
          second: { state: 'succeeded', attempts: [{ step: 'draft', attempt: 1, startedAtMs: 60_000 }] },
          third: { state: 'succeeded', attempts: [{ step: 'draft', attempt: 1, startedAtMs: DAY }] },
        },
      },
    });
  });

  it('a run whose day begins while its run slots are taken queues for a slot, then starts when one frees', async () => {
    const limited = parseWorkflow({ ...flow(), limits: { maxParallelRuns: 1 } });
    const r = await passes(limited, {
      name: 'budget then slot',
      policy: policy({ perWorkflowPerDay: { '*': 1 } }),
      steps: { draft: [{ succeed: { text: 'v1' }, cost: 1.2 }], polish: [{ succeed: { text: 'v2' }, cost: 0.1, takeMs: 1.5 * DAY }] },
      runs: [{ name: 'second', atMs: 60_000, steps: { draft: [{ succeed: { text: 'v1' }, cost: 0.2 }], polish: [{ succeed: { text: 'v2' } }] } }],
      expect: {
        waitedForBudget: ['second'],
        queued: ['second'],
        maxParallelRuns: 1,
        runs: { second: { state: 'succeeded', attempts: [{ step: 'draft', attempt: 1, startedAtMs: 1.5 * DAY }] } },
      },
    });
    const second = r.runs.find((x) => x.name === 'second')?.runId;
    expect(r.events.filter((e) => e.runId === second && e.type === 'run_queued').map((e) => e.reason)).toEqual([
      expect.stringMatching(/^waiting for budget: /),
      'a new day (UTC) began and its budget has room; 1 of 1 parallel runs of "pay-flow" are running',
    ]);
  });

  it('refused when the policy says whenOver "refuse", with the budget named', async () => {
    const r = await passes(flow(), {
      name: 'refuse',
      policy: policy({ perWorkflowPerDay: { '*': 1 }, whenOver: 'refuse' }),
      steps: spendy,
      runs: [{ name: 'second', atMs: 60_000, refused: true }],
      expect: { state: 'succeeded' },
    });
    expect(r.runs.map((x) => x.name)).toEqual(['main']);
  });

  it('a run waiting for budget when the engine crashes still starts the next day, once', async () => {
    const r = await passes(flow(), {
      name: 'crash while waiting',
      policy: policy({ perWorkflowPerDay: { '*': 1 } }),
      steps: spendy,
      runs: [{ name: 'second', atMs: 60_000 }],
      crash: { afterEvent: 'run_queued' },
      expect: { waitedForBudget: ['second'], runs: { second: { state: 'succeeded', attempts: [{ step: 'draft', attempt: 1, startedAtMs: DAY }] } } },
    });
    expect(r.crashed).toBe(true);
    const second = r.runs.find((x) => x.name === 'second')?.runId;
    expect(r.events.filter((e) => e.runId === second && e.type === 'run_dequeued')).toHaveLength(1);
  });

  it('a run the scenario expects refused that starts fails the scenario', async () => {
    const r = await runScenario(flow(), Scenario.parse({ name: 'wrongly refused', steps: spendy, runs: [{ name: 'second', atMs: 60_000, refused: true }], expect: {} }));
    expect(r.passed).toBe(false);
    expect(r.assertions.filter((a) => !a.ok)).toEqual([{ what: 'start of run "second" refused', ok: false, expected: 'refused', actual: 'started' }]);
  });
});
