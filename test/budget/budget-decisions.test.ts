// The pure decisions of budgets, as tables: which run budget applies (the smallest of definition,
// start and policy perRun), what a step's next attempt is expected to cost (declared cost.perCall,
// else its last attempt's cost, else unknown), whether it may start, and admission under daily
// budgets (the workflow's own entry before "*", then the workspace's; wait or refuse).
import { describe, expect, it } from 'vitest';
import { admitWithinBudget, nextDayStart } from '../../engine/runtime/budget-admission.ts';
import { budgetBeforeAttempt, runBudget, runSpend, stepEstimate } from '../../shared/run/run-budget.ts';
import type { Step, Workflow } from '../../shared/definition/workflow-schema.ts';
import { newRunModel, type AttemptRecord, type RunModel } from '../../shared/run/run-model.ts';
import { Policy, type Budgets } from '../../shared/policy/policy-schema.ts';
import { parseWorkflow } from '../engine/harness.ts';

const workflow = (budget?: number): Workflow => parseWorkflow({
  format: 'weft/v1', id: 'pay', version: 1, name: 'Pay',
  ...(budget === undefined ? {} : { limits: { budget } }),
  steps: [{ id: 'call', kind: 'http', config: { method: 'GET', url: 'https://api.example/x' } }, { id: 'done', kind: 'end' }],
  edges: [{ id: 'e', from: 'call', to: 'done' }],
});

function run(o: { definition?: number; start?: number; perRun?: number; currency?: string; costs?: (number | undefined)[] }): RunModel {
  const m = newRunModel('r1', workflow(o.definition));
  m.startBudget = o.start;
  if (o.perRun !== undefined || o.currency !== undefined) {
    m.policy = { hash: 'h', rules: Policy.parse({ format: 'weft-policy/v1', budgets: { ...(o.perRun === undefined ? {} : { perRun: o.perRun }), ...(o.currency === undefined ? {} : { currency: o.currency }) } }) };
  }
  const s = m.steps.get('call');
  for (const [k, c] of (o.costs ?? []).entries()) s?.attempts.push(attempt(k + 1, c));
  return m;
}

function attempt(number: number, cost: number | undefined): AttemptRecord {
  return {
    activation: 1, number, state: 'failed', startedAt: 0, endedAt: 1, inputHash: 'h', input: null, variant: null, effect: 'none',
    idempotencyKey: undefined, timeoutMs: undefined, error: null, evidenceId: null, retryAfterMs: undefined, output: undefined, queuedAt: 0,
    meta: cost === undefined ? undefined : { cost: { amount: cost, currency: 'USD', basis: 'scripted' } },
  };
}

const step = (m: RunModel): Step => m.workflow.steps[0] as Step;

describe('runBudget: the smallest applies', () => {
  it.each([
    [{}, undefined],
    [{ definition: 1 }, { amount: 1, currency: 'USD', source: 'definition' }],
    [{ definition: 1, start: 0.5 }, { amount: 0.5, currency: 'USD', source: 'start' }],
    [{ definition: 1, start: 0.5, perRun: 0.2, currency: 'EUR' }, { amount: 0.2, currency: 'EUR', source: 'policy' }],
    [{ definition: 0.5, start: 0.5, perRun: 0.5 }, { amount: 0.5, currency: 'USD', source: 'definition' }],
    [{ start: 0 }, { amount: 0, currency: 'USD', source: 'start' }],
  ])('%j → %j', (given, want) => {
    expect(runBudget(run(given))).toEqual(want);
  });

  it('adds what every attempt recorded, without binary drift', () => {
    expect(runSpend(run({ costs: [0.1, undefined, 0.2] }))).toBe(0.3);
  });
});

describe('stepEstimate and budgetBeforeAttempt', () => {
  it('reads the last attempt that recorded a cost, else unknown (0)', () => {
    expect(stepEstimate(step(run({})), { attempts: [] })).toEqual({ amount: 0, basis: 'unknown' });
    expect(stepEstimate(step(run({})), { attempts: [attempt(1, 0.2), attempt(2, undefined)] })).toEqual({ amount: 0.2, basis: 'last attempt' });
  });

  it("takes a declared cost.perCall first, and ignores one that is not a number", () => {
    const base = step(run({}));
    expect(stepEstimate({ ...base, cost: { perCall: 0.05 } } as unknown as Step, { attempts: [attempt(1, 0.2)] })).toEqual({ amount: 0.05, basis: 'declared' });
    expect(stepEstimate({ ...base, cost: { perCall: 'a lot' } } as unknown as Step, { attempts: [] })).toEqual({ amount: 0, basis: 'unknown' });
    expect(stepEstimate({ ...base, cost: null } as unknown as Step, { attempts: [] })).toEqual({ amount: 0, basis: 'unknown' });
  });

  it.each([
    ['no budget', {}, undefined],
    ['under, unknown estimate', { start: 0.5, costs: [] }, undefined],
    ['exactly reaches it with the estimate', { start: 0.4, costs: [0.2] }, undefined],
    ['spent all of it', { start: 0.2, costs: [0.2] }, "the run has spent $0.20, all of the start's budget ($0.20)"],
    ['the estimate would pass it', { definition: 0.5, costs: [0.2, 0.2] }, "the run has spent $0.40 of the definition's limits.budget ($0.50); the step's estimate (its last attempt) of $0.20 would exceed it"],
    ['a zero budget stops a step of unknown cost', { perRun: 0 }, "the run has spent $0.00, all of the policy's budgets.perRun ($0.00)"],
  ])('%s', (_name, given, want) => {
    const m = run(given);
    expect(budgetBeforeAttempt(m, step(m), m.steps.get('call') ?? { attempts: [] })).toBe(want);
  });
});

describe('admitWithinBudget', () => {
  const now = Date.UTC(2026, 2, 5, 13, 30);
  const midnight = Date.UTC(2026, 2, 6);
  const spent = (workflow: number, workspace: number) => ({ workflow, workspace });
  it.each<[string, Budgets | undefined, { workflow: number; workspace: number }, string]>([
    ['no policy budgets', undefined, spent(100, 100), 'start'],
    ['only a run budget', { perRun: 1 }, spent(100, 100), 'start'],
    ['under "*"', { perWorkflowPerDay: { '*': 2 } }, spent(1.99, 1.99), 'start'],
    ['at "*"', { perWorkflowPerDay: { '*': 2 } }, spent(2, 2), 'wait'],
    ['its own entry wins over "*"', { perWorkflowPerDay: { '*': 1, pay: 3 } }, spent(2, 2), 'start'],
    ['the workspace', { perWorkspacePerDay: 5 }, spent(0, 5), 'wait'],
    ['refuse', { perWorkspacePerDay: 5, whenOver: 'refuse' }, spent(0, 6), 'refuse'],
  ])('%s', (_name, budgets, s, kind) => {
    expect(admitWithinBudget(budgets, 'pay', s, now).kind).toBe(kind);
  });

  it('names the budget and amounts, and waits until the next UTC midnight', () => {
    expect(admitWithinBudget({ currency: 'EUR', perWorkflowPerDay: { '*': 2 } }, 'pay', spent(2.5, 3), now)).toEqual({
      kind: 'wait',
      until: midnight,
      reason: 'waiting for budget: runs of "pay" have spent EUR 2.50 on 2026-03-05 (UTC), all of the policy\'s budgets.perWorkflowPerDay["*"] (EUR 2.00); the run starts when the next day begins (2026-03-06T00:00:00.000Z)',
    });
    expect(nextDayStart(midnight)).toBe(midnight + 86_400_000);
    expect(nextDayStart(midnight - 1)).toBe(midnight);
  });
});
