// runEvent (shared/events/run-event.ts) makes the event the store reads from a row: its fields
// in the order an event's JSON has always had (`weft events --json`, the API), whatever order
// its parts come in, and none but the event's own.
import { describe, expect, it } from 'vitest';
import { runEvent } from '../../shared/events/run-event.ts';

describe('runEvent', () => {
  it('gives runId, seq, at, step, activation, attempt, reason, then type and data', () => {
    const parts = { reason: 'why', attempt: 2, activation: 1, step: 'charge', at: 1_700_000_000_000, seq: 4, runId: 'r1' };
    const e = runEvent('timer_set', { dueAt: 1_700_000_060_000 }, parts);
    expect(JSON.stringify(e)).toBe(
      '{"runId":"r1","seq":4,"at":1700000000000,"step":"charge","activation":1,"attempt":2,"reason":"why","type":"timer_set","data":{"dueAt":1700000060000}}',
    );
  });

  it('keeps nulls as nulls', () => {
    const e = runEvent('run_state_changed', { state: 'waiting' }, { runId: 'r1', seq: 2, at: 5, step: null, activation: null, attempt: null, reason: null });
    expect(e).toEqual({ runId: 'r1', seq: 2, at: 5, step: null, activation: null, attempt: null, reason: null, type: 'run_state_changed', data: { state: 'waiting' } });
  });
});
