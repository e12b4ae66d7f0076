// What a retry, fork, revision or replay will bill again (shared/cost/rebill.ts over the acts' own
// plans, engine/runtime/rebill-plan.ts), on a real store whose agent calls recorded scripted
// costs; and that the steps the estimate names are the ones the act then runs.
import { afterEach, describe, expect, it } from 'vitest';
import { forkRebill, replayRebill, retryRebill, revisionRebill } from '../../engine/runtime/rebill-plan.ts';
import { planRevision } from '../../engine/runtime/revision-plan.ts';
import { foldRun } from '../../engine/runtime/fold-run.ts';
import { openDatabase } from '../../engine/store/open-database.ts';
import { Store } from '../../engine/store/store.ts';
import { indexDefinition } from '../../shared/run/definition-index.ts';
import { rebillEstimate, rebillLine } from '../../shared/cost/rebill.ts';
import { RebillEstimate } from '../../shared/cost/rebill-estimate.ts';
import { billedStore, rebillFlow } from './rebill-flow.ts';

let close: (() => void) | undefined;
afterEach(() => close?.());

async function failedRun(): Promise<{ model: ReturnType<typeof foldRun>; runId: string }> {
  const s = await billedStore();
  close = s.close;
  const model = foldRun(new Store(openDatabase(s.dbPath)), s.runId);
  expect(model.state).toBe('failed');
  return { model, runId: s.runId };
}

describe('rebillEstimate', () => {
  it('estimates a retry from the step\'s last attempt, and lists nothing free', async () => {
    const { model } = await failedRun();
    const e = RebillEstimate.parse(retryRebill(model, 'check'));
    expect(e).toEqual({ action: 'retry', steps: [{ stepId: 'check', kind: 'agent', estimate: 0.003, basis: 'last attempt', when: 'runs again' }], total: 0.003, upTo: 0.003, currency: 'USD' });
    expect(rebillLine(e)).toBe('billed again: check ($0.003, last attempt); about $0.003');
  });

  it('estimates a fork: its step for sure, what follows if reached; an agent with no recorded cost is "cost unknown", a transform is not listed', async () => {
    const { model } = await failedRun();
    const e = forkRebill(model, 'draft');
    expect(e.steps.map((s) => [s.stepId, s.estimate, s.when])).toEqual([
      ['draft', 0.012, 'runs again'],
      ['check', 0.003, 'if reached'],
    ]);
    expect(e.total).toBe(0.012);
    expect(e.upTo).toBe(0.015);
    expect(rebillLine(e)).toBe('billed again: draft ($0.012, last attempt), check (if reached, $0.003, last attempt); about $0.012, up to $0.015 if every step is reached');
  });

  it('estimates a revision from its plan: rerun steps run again, later ones if reached', async () => {
    const { model } = await failedRun();
    const plan = await planRevision(model, indexDefinition(model.workflow), { topic: 'rates' });
    const e = revisionRebill(model, plan.steps);
    expect(plan.steps.map((p) => [p.stepId, p.action])).toEqual([['draft', 'rerun'], ['check', 'later']]);
    expect(e.steps.map((s) => [s.stepId, s.when])).toEqual([['draft', 'runs again'], ['check', 'if reached']]);
    expect(e.total).toBe(0.012);
  });

  it('says a replay bills nothing', async () => {
    const { model } = await failedRun();
    const e = replayRebill(model);
    expect(e.steps).toEqual([]);
    expect(rebillLine(e)).toBe('billed again: nothing (a replay uses the recorded answers of every step: nothing is billed again)');
  });

  it('lists an agent that never recorded a cost as "cost unknown", and sums without float drift', () => {
    const run = {
      workflow: rebillFlow,
      steps: [
        { id: 'draft', attempts: [{ meta: { cost: { amount: 0.1, currency: 'USD', basis: 'scripted' as const } } }, { meta: { cost: { amount: 0.2, currency: 'USD', basis: 'scripted' as const } } }] },
        { id: 'check', attempts: [{ meta: { cost: { amount: 0.1, currency: 'USD', basis: 'scripted' as const } } }] },
        { id: 'polish', attempts: [{ meta: null }] },
        { id: 'tidy', attempts: [{ meta: null }] },
      ],
    };
    const e = rebillEstimate('retry', run, ['draft', 'check', 'polish', 'tidy'].map((stepId) => ({ stepId, when: 'runs again' as const })));
    expect(e.steps.map((s) => [s.stepId, s.estimate, s.basis])).toEqual([['draft', 0.2, 'last attempt'], ['check', 0.1, 'last attempt'], ['polish', null, 'unknown']]);
    expect(e.total).toBe(0.3);
    expect(rebillLine(e)).toBe('billed again: draft ($0.20, last attempt), check ($0.10, last attempt), polish (cost unknown); about $0.30 plus what the steps of unknown cost bill');
  });
});
