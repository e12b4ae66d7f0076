// The compensation plan alone: which steps to offset and in what order, and the next move of a
// compensation under way.
import { describe, expect, it } from 'vitest';
import { compensationOrder, nextCompensation } from '../../../engine/runtime/compensation-plan.ts';
import { end } from '../harness.ts';
import { plainRun } from './plain-run.ts';

const cmd = (id: string, extra: Record<string, unknown> = {}) => ({ id, kind: 'command', config: { argv: ['true'] }, ...extra });

const saga = () => plainRun(
  [cmd('hold_funds', { effect: 'external', compensation: 'release', onExhausted: 'escalate' }), cmd('hold_stock', { effect: 'external', compensation: 'reverse', onExhausted: 'escalate' }), cmd('note'), end(), cmd('release'), cmd('reverse')],
  [{ id: 'a', from: 'hold_funds', to: 'hold_stock' }, { id: 'b', from: 'hold_stock', to: 'note' }, { id: 'c', from: 'note', to: 'done' }],
);

describe('compensationOrder', () => {
  it('offsets succeeded external steps with a compensation, the latest completed first', () => {
    const p = saga();
    Object.assign(p.s('hold_funds'), { outcome: 'succeeded', settledSeq: 4 });
    Object.assign(p.s('hold_stock'), { outcome: 'succeeded', settledSeq: 9 });
    Object.assign(p.s('note'), { outcome: 'succeeded', settledSeq: 12 });
    expect(compensationOrder(p.run, p.index)).toEqual(['hold_stock', 'hold_funds']);
    p.s('hold_stock').outcome = 'failed';
    expect(compensationOrder(p.run, p.index)).toEqual(['hold_funds']);
    p.s('hold_funds').outcome = 'unknown';
    expect(compensationOrder(p.run, p.index)).toEqual([]);
  });
});

describe('nextCompensation', () => {
  it('activates the compensation of the next pending step, waits while it runs, and fails when all are offset', () => {
    const p = saga();
    expect(nextCompensation(p.run, p.index, 'ship failed')).toEqual({ kind: 'none' });
    p.run.compensation = { pending: ['hold_stock', 'hold_funds'], done: [] };
    expect(nextCompensation(p.run, p.index, 'ship failed')).toEqual({ kind: 'activate', by: 'reverse', compensates: 'hold_stock', activation: 1 });
    Object.assign(p.s('reverse'), { compensates: 'hold_stock', state: 'running', activation: 1 });
    expect(nextCompensation(p.run, p.index, 'ship failed')).toEqual({ kind: 'wait' });
    Object.assign(p.s('reverse'), { state: 'unknown' });
    expect(nextCompensation(p.run, p.index, 'ship failed')).toEqual({ kind: 'wait' }); // a person must look at it
    p.run.compensation = { pending: [], done: ['hold_stock', 'hold_funds'] };
    expect(nextCompensation(p.run, p.index, 'ship failed')).toEqual({ kind: 'fail', reason: 'ship failed; compensated hold_stock, hold_funds' });
  });
});
