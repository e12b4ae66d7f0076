// Every failing run ends: compensations that settle inside the engine's tick (an inline step)
// move the run on to the next one and to its end, on a real store with
// real processes; a run the engine would leave `running` with nothing to wake it is caught.
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../engine/runtime/engine.ts';
import { StepRouter } from '../../engine/runtime/step-router.ts';
import { defaultExecutors } from '../../engine/executors/default-executors.ts';
import { systemClock, systemRandom } from '../../engine/time/clock.ts';
import { forkPlan } from '../../engine/runtime/fork-plan.ts';
import { foldRun } from '../../engine/runtime/fold-run.ts';
import { end, harness, types, wf, type Harness } from './harness.ts';

let h: Harness | undefined;
afterEach(() => h?.close());

const print = (json: string) => ({ argv: ['node', '-e', `process.stdout.write(${JSON.stringify(json)})`] });
// Two external holds, offset newest first: the stock hold by a transform (no call), the funds by a
// release command; shipping fails and nothing handles it, so the run compensates and fails.
const ledger = wf('ledger', [
  { id: 'hold_funds', kind: 'command', config: print('{"hold": "F-1"}'), effect: 'external', compensation: 'release_funds', onExhausted: 'escalate' },
  { id: 'hold_stock', kind: 'command', config: print('{"line": "L-7"}'), effect: 'external', compensation: 'reverse_stock', onExhausted: 'escalate' },
  { id: 'ship', kind: 'command', config: { argv: ['node', '-e', 'process.exit(1)'] } },
  end(),
  end('not_shipped', 'failed'),
  { id: 'reverse_stock', kind: 'transform', config: { expression: '{ "reverses": steps.hold_stock.output.line }' } },
  { id: 'release_funds', kind: 'command', config: print('{"released": "F-1"}') },
], [
  { id: 'funds_held', from: 'hold_funds', to: 'hold_stock' },
  { id: 'stock_held', from: 'hold_stock', to: 'ship' },
  { id: 'shipped', from: 'ship', to: 'done' },
  { id: 'ship_failed', from: 'ship', to: 'not_shipped', on: 'failed' },
  { id: 'funds_failed', from: 'hold_funds', to: 'not_shipped', on: 'failed' },
  { id: 'stock_failed', from: 'hold_stock', to: 'not_shipped', on: 'failed' },
]);

describe('compensation that settles inside the tick', () => {
  it('an inline compensation hands on to the next one, and the run ends failed', async () => {
    h = harness();
    const { runId } = h.start(ledger);
    expect(await h.engine.settled(runId)).toBe('failed');
    const events = h.events(runId);
    expect(events.filter((e) => e.type === 'step_compensated').map((e) => e.step)).toEqual(['hold_stock', 'hold_funds']);
    expect(types(events, 'release_funds')).toEqual(['step_activated', 'attempt_started', 'attempt_succeeded', 'step_settled']);
    expect(events.at(-1)).toMatchObject({ type: 'run_state_changed', data: { state: 'failed' } });
  });

  it('a fork from ship does not count the offset holds as done: each waits for a decision, and once held again and shipping fails again, both are offset by new compensations and the run ends failed', async () => {
    h = harness();
    const { runId, workflow } = h.start(ledger);
    expect(await h.engine.settled(runId)).toBe('failed');
    const plan = forkPlan(foldRun(h.store, runId), 'ship');
    const forked = h.engine.startRun({ workflow, definitionHash: 'x', input: {}, workspaceDir: h.dir, forkOf: { runId, fromStep: 'ship' }, importEvidence: plan.evidence });
    // The first run released both holds: the fork may not go on as if they held.
    expect(await h.engine.settled(forked)).toBe('needs_attention');
    const held = h.events(forked).find((e) => e.type === 'revision_held' && e.step === 'hold_funds');
    expect(held?.reason).toContain('its earlier effect was undone by a compensation');
    expect(held?.reason).toContain('was offset by "release_funds"');
    // Keeping an undone hold is refused; retrying it holds again.
    await expect(h.engine.keepStep(forked, 'hold_funds', 'ops', 'keep it')).rejects.toThrow(/was undone by "release_funds", so it cannot stand/);
    await h.engine.retryStep(forked, 'hold_funds', 'ops', 'hold the funds again');
    expect(await h.engine.settled(forked)).toBe('needs_attention');
    await h.engine.retryStep(forked, 'hold_stock', 'ops', 'hold the stock again');
    expect(await h.engine.settled(forked)).toBe('failed');
    const events = h.events(forked);
    expect(types(events, 'hold_funds').filter((t) => t === 'attempt_succeeded')).toHaveLength(1);
    // The new holds are offset anew: the first run's compensations offset other holds.
    expect(types(events, 'reverse_stock')).toEqual(['evidence_imported', 'step_activated', 'attempt_started', 'attempt_succeeded', 'step_settled']);
    expect(types(events, 'release_funds')).toEqual(['evidence_imported', 'step_activated', 'attempt_started', 'attempt_succeeded', 'step_settled']);
    expect(events.filter((e) => e.type === 'step_compensated').map((e) => e.step)).toEqual(['hold_stock', 'hold_funds']);
    expect(h.model(forked).steps.get('hold_funds')?.state).toBe('compensated');
  });

  it('a fork from hold_stock holds the undone funds for a decision; retried, both holds are new and both compensations run again', async () => {
    h = harness();
    const { runId, workflow } = h.start(ledger);
    expect(await h.engine.settled(runId)).toBe('failed');
    const plan = forkPlan(foldRun(h.store, runId), 'hold_stock');
    const forked = h.engine.startRun({ workflow, definitionHash: 'x', input: {}, workspaceDir: h.dir, forkOf: { runId, fromStep: 'hold_stock' }, importEvidence: plan.evidence });
    expect(await h.engine.settled(forked)).toBe('needs_attention');
    expect(types(h.events(forked), 'hold_stock')).not.toContain('attempt_started'); // it waits behind the held funds
    await h.engine.retryStep(forked, 'hold_funds', 'ops', 'hold the funds again');
    expect(await h.engine.settled(forked)).toBe('failed');
    const events = h.events(forked);
    expect(types(events, 'hold_stock')).toContain('attempt_succeeded');
    expect(types(events, 'reverse_stock')).toEqual(['evidence_imported', 'step_activated', 'attempt_started', 'attempt_succeeded', 'step_settled']);
    expect(types(events, 'release_funds')).toEqual(['evidence_imported', 'step_activated', 'attempt_started', 'attempt_succeeded', 'step_settled']);
  });
});

/** A router whose compensation says "going on" and does nothing: the stall the engine must catch. */
class StallingRouter extends StepRouter {
  protected override compensateOrFail(): Promise<boolean> {
    return Promise.resolve(true);
  }
}

describe('a run that is quiet but not ended', () => {
  it('needs attention, with a reason, instead of staying running with nothing to wake it', async () => {
    h = harness();
    const store = h.store;
    h.engine.close();
    h.engine = new Engine({ store, clock: systemClock, random: systemRandom, executors: defaultExecutors() }, { router: (port, attempts) => new StallingRouter(port, attempts) });
    const { runId } = h.start(ledger);
    expect(await h.engine.settled(runId)).toBe('needs_attention');
    const last = h.events(runId).at(-1);
    expect(last).toMatchObject({ type: 'run_state_changed', data: { state: 'needs_attention' } });
    expect(last?.reason).toContain('no step is ready, running or waiting, yet the run has not ended');
  });
});
