// Recovery alone: a run as its log left it in; what the scheduler must redo (interrupted
// attempts, timers, work lists) out.
import { describe, expect, it } from 'vitest';
import { planRecovery } from '../../../engine/runtime/recovery-plan.ts';
import { end } from '../harness.ts';
import { attempt, plainRun } from './plain-run.ts';

const cmd = (id: string, extra: Record<string, unknown> = {}) => ({ id, kind: 'command', config: { argv: ['true'] }, ...extra });

describe('planRecovery', () => {
  it('ends attempts left running (an external one as unknown), re-arms timers in due order and rebuilds the work lists', () => {
    const p = plainRun(
      [cmd('pay', { effect: 'external', onExhausted: 'escalate' }), cmd('log'), cmd('next'), cmd('later'), cmd('soon'), end()],
      [{ id: 'a', from: 'log', to: 'next' }, { id: 'b', from: 'next', to: 'later' }, { id: 'c', from: 'later', to: 'soon' }, { id: 'd', from: 'soon', to: 'pay' }, { id: 'e', from: 'pay', to: 'done' }],
    );
    Object.assign(p.s('pay'), { state: 'running', activation: 1, attempts: [attempt({ number: 1, state: 'running', effect: 'external' })] });
    Object.assign(p.s('log'), { state: 'running', activation: 1, attempts: [attempt({ number: 1, state: 'running' })] });
    Object.assign(p.s('next'), { state: 'ready' });
    Object.assign(p.s('later'), { state: 'retry_wait', retryDueAt: 900 });
    Object.assign(p.s('soon'), { state: 'waiting', timerDueAt: 100 });
    const plan = planRecovery(p.run, p.index);
    expect(plan.interrupted.map((c) => [c.stepId, c.result.outcome])).toEqual([['pay', 'unknown'], ['log', 'failed']]);
    expect(plan.interrupted[1]?.result).toMatchObject({ code: 'interrupted', retryable: true });
    expect(plan.ready).toEqual(['next']);
    expect(plan.timers).toEqual([{ stepId: 'soon', dueAt: 100 }, { stepId: 'later', dueAt: 900 }]);
    expect(plan.dirty).toEqual(['done']);
  });

  it('asks to catch up on the child runs of a waiting step, and plans nothing for a finished run', () => {
    const p = plainRun([{ id: 'sub', kind: 'subworkflow', config: { workflow: { id: 'child', version: 1 } } }, end()], [{ id: 'a', from: 'sub', to: 'done' }]);
    Object.assign(p.s('sub'), { state: 'waiting', activation: 1, attempts: [attempt({ number: 1, state: 'running' })] });
    p.s('sub').children.set(0, { runId: 'r-child', state: null, output: null });
    expect(planRecovery(p.run, p.index).resume).toEqual(['sub']);
    p.run.state = 'succeeded';
    expect(planRecovery(p.run, p.index)).toEqual({ interrupted: [], ready: [], timers: [], dirty: [], resume: [], rechecks: [] });
  });

  it('asks to catch up on a waiting event step: an event may have been stored and never delivered', () => {
    const p = plainRun([{ id: 'paid', kind: 'event', config: { name: 'payment.received', correlationKey: '"k"' }, deadlineMs: 60_000 }, end()], [{ id: 'a', from: 'paid', to: 'done' }]);
    Object.assign(p.s('paid'), { state: 'waiting', activation: 1, attempts: [attempt({ number: 1, state: 'running' })], awaiting: { name: 'payment.received', key: 'k' } });
    expect(planRecovery(p.run, p.index).resume).toEqual(['paid']);
  });
});
