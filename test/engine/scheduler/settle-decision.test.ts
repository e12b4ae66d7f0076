// Settling alone: a step, its outcome and its decided edges in; the edges to record and what the
// outcome calls for (nothing, fail the run, ask a person, a compensation's end) out.
import { describe, expect, it } from 'vitest';
import type { EdgeDecision } from '../../../shared/events/run-event.ts';
import { decideSettle } from '../../../engine/runtime/settle-decision.ts';
import { end } from '../harness.ts';
import { plainRun } from './plain-run.ts';

const cmd = (id: string, extra: Record<string, unknown> = {}) => ({ id, kind: 'command', config: { argv: ['true'] }, ...extra });
const taken: EdgeDecision[] = [{ id: 'a', taken: true, why: '"pay" succeeded' }];
const notTaken: EdgeDecision[] = [{ id: 'a', taken: false, why: '"pay" failed; the edge follows succeeded' }];

describe('decideSettle', () => {
  const flow = (pay: Record<string, unknown> = {}) => plainRun([cmd('pay', pay), end()], [{ id: 'a', from: 'pay', to: 'done' }]);

  it('records the edges and does nothing more when an edge handles the outcome, or the outcome is quiet', () => {
    const p = flow();
    expect(decideSettle(p.run, p.index, p.step('pay'), p.s('pay'), 'succeeded', 'ok', taken)).toEqual({ edges: taken, then: { kind: 'none' } });
    expect(decideSettle(p.run, p.index, p.step('pay'), p.s('pay'), 'skipped', 'no edge', notTaken)).toEqual({ edges: notTaken, then: { kind: 'none' } });
  });

  it('fails the run on a failure nothing handles, saying why', () => {
    const p = flow();
    expect(decideSettle(p.run, p.index, p.step('pay'), p.s('pay'), 'failed', '1 of 1 attempts used', notTaken)).toEqual({
      edges: notTaken,
      then: { kind: 'fail', reason: 'step "pay" failed (1 of 1 attempts used) and no edge or escalation handles it' },
    });
  });

  it('asks a person, leaving the edges undecided, for an unknown outcome or onExhausted escalate', () => {
    const p = flow({ onExhausted: 'escalate' });
    expect(decideSettle(p.run, p.index, p.step('pay'), p.s('pay'), 'unknown', 'lost', notTaken)).toEqual({
      edges: [],
      then: { kind: 'escalate', reason: 'the outcome of "pay" is unknown and no edge handles it: a person must find out whether it took effect' },
    });
    expect(decideSettle(p.run, p.index, p.step('pay'), p.s('pay'), 'failed', 'x', notTaken)).toEqual({ edges: [], then: { kind: 'escalate', reason: '"pay" failed and onExhausted is escalate' } });
  });

  it('absorbs the failure of an optional step and of a branch that only feeds joins', () => {
    const optional = flow({ optional: true });
    expect(decideSettle(optional.run, optional.index, optional.step('pay'), optional.s('pay'), 'failed', 'x', notTaken).then).toEqual({ kind: 'none' });
    const joined = plainRun(
      [cmd('start'), cmd('left'), cmd('right'), { id: 'both', kind: 'join', config: { mode: 'all', onFailedBranch: 'ignore' } }, end()],
      [{ id: 's1', from: 'start', to: 'left' }, { id: 's2', from: 'start', to: 'right' }, { id: 'l', from: 'left', to: 'both' }, { id: 'r', from: 'right', to: 'both' }, { id: 'b', from: 'both', to: 'done' }],
    );
    const lost: EdgeDecision[] = [{ id: 'l', taken: false, why: 'failed' }];
    expect(decideSettle(joined.run, joined.index, joined.step('left'), joined.s('left'), 'failed', 'x', lost)).toEqual({ edges: lost, then: { kind: 'none' } });
  });

  it('fails the run that reaches an end with status failed, once', () => {
    const p = plainRun([cmd('pay'), end('broke', 'failed')], [{ id: 'a', from: 'pay', to: 'broke' }]);
    expect(decideSettle(p.run, p.index, p.step('broke'), p.s('broke'), 'succeeded', 'ok', []).then).toEqual({ kind: 'fail', reason: 'reached end step "broke" (status failed)' });
    p.run.failing = { stepId: 'broke', reason: 'already' };
    expect(decideSettle(p.run, p.index, p.step('broke'), p.s('broke'), 'succeeded', 'ok', []).then).toEqual({ kind: 'none' });
  });

  it('ends a compensation: the step is offset, or a person must offset it', () => {
    const p = plainRun([cmd('pay', { effect: 'external', compensation: 'refund', onExhausted: 'escalate' }), end(), cmd('refund')], [{ id: 'a', from: 'pay', to: 'done' }]);
    p.s('refund').compensates = 'pay';
    expect(decideSettle(p.run, p.index, p.step('refund'), p.s('refund'), 'succeeded', 'ok', []).then).toEqual({ kind: 'compensated', step: 'pay' });
    expect(decideSettle(p.run, p.index, p.step('refund'), p.s('refund'), 'failed', 'x', []).then).toEqual({
      kind: 'compensation_escalated',
      reason: 'compensation of "pay" failed: a person must offset it (the run is not marked failed until then)',
    });
  });
});
