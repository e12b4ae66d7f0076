// What an operator's retry, skip or resolve re-decides, alone: on plain data, the edges whose
// decisions are withdrawn and the settled steps decided again, in the record-update shape.
import { describe, expect, it } from 'vitest';
import { reopenPlan } from '../../../engine/runtime/reopen-plan.ts';
import { end } from '../harness.ts';
import { plainRun } from './plain-run.ts';

const recordUpdate = () =>
  plainRun(
    [
      { id: 'write', kind: 'command', config: { argv: ['w'] }, effect: 'external' },
      { id: 'verify', kind: 'command', config: { argv: ['v'] }, onExhausted: 'escalate' },
      { id: 'notify', kind: 'transform', config: { expression: '1' } },
      end(),
      end('write_failed', 'failed'),
      end('unsure', 'failed'),
    ],
    [
      { id: 'w_ok', from: 'write', to: 'verify' },
      { id: 'w_unknown', from: 'write', to: 'unsure', on: 'unknown' },
      { id: 'w_failed', from: 'write', to: 'write_failed', on: 'failed' },
      { id: 'v_ok', from: 'verify', to: 'notify' },
      { id: 'n_done', from: 'notify', to: 'done' },
    ],
  );

describe('reopenPlan', () => {
  it('withdraws the decisions after a failed write and decides again the end step it reached and the steps it skipped', () => {
    const p = recordUpdate();
    for (const [id, taken] of [['w_ok', false], ['w_unknown', false], ['w_failed', true], ['v_ok', false], ['n_done', false]] as const) p.run.edges.set(id, { taken, seq: 5, why: '' });
    Object.assign(p.s('write'), { state: 'failed', activation: 1 });
    Object.assign(p.s('write_failed'), { state: 'succeeded', activation: 1 });
    for (const id of ['verify', 'notify', 'done', 'unsure']) Object.assign(p.s(id), { state: 'skipped' });
    const plan = reopenPlan(p.run, p.index, 'write', 'retry of "write" by ann');
    expect(plan?.data).toEqual({
      cause: 'retry of "write" by ann',
      edges: ['w_ok', 'w_unknown', 'w_failed', 'v_ok', 'n_done'],
      steps: [
        { stepId: 'verify', activation: 0, state: 'skipped' },
        { stepId: 'unsure', activation: 0, state: 'skipped' },
        { stepId: 'write_failed', activation: 1, state: 'succeeded' },
        { stepId: 'notify', activation: 0, state: 'skipped' },
        { stepId: 'done', activation: 0, state: 'skipped' },
      ],
    });
    expect(plan?.reason).toBe('retry of "write" by ann: what followed its earlier outcome is decided again; superseded: write_failed (end step reached in activation 1); skipped before, decided again: verify, unsure, notify, done');
  });

  it('leaves steps at work and compensated steps as they are, and plans nothing when nothing after the step is decided', () => {
    const p = recordUpdate();
    expect(reopenPlan(p.run, p.index, 'write', 'resolve of "write" by ann')).toBeUndefined();
    p.run.edges.set('w_ok', { taken: true, seq: 5, why: '' });
    p.run.edges.set('v_ok', { taken: true, seq: 6, why: '' });
    Object.assign(p.s('verify'), { state: 'compensated' });
    Object.assign(p.s('notify'), { state: 'running' });
    const plan = reopenPlan(p.run, p.index, 'write', 'resolve of "write" by ann');
    expect(plan?.data.edges).toEqual(['w_ok']); // a compensated step keeps what it decided
    expect(plan?.data.steps).toEqual([]);
  });
});
