// The inbox's deadline countdown (renderer/tasks/countdown.ts; its test sits with the form tests,
// the folder this piece owns): the texts at the edges of each unit and the urgency bands.
import { describe, expect, it } from 'vitest';
import { countdown } from '../../../renderer/tasks/countdown.ts';

const T = Date.parse('2026-12-01T12:00:00Z');
const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

describe('countdown', () => {
  it.each([
    [2 * d + 3 * h + 59 * m, '2d 3h left', 'calm'],
    [d, '1d 0h left', 'calm'],
    [d - m, '23h 59m left', 'soon'],
    [h, '1h 00m left', 'soon'],
    [h - 1, '1h 00m left', 'urgent'],
    [h - s, '59m 59s left', 'urgent'],
    [d - 1, '1d 0h left', 'soon'],
    [12 * m + 5 * s, '12m 05s left', 'urgent'],
    [1, '0m 01s left', 'urgent'],
    [0, 'overdue 0m 00s', 'overdue'],
    [-(2 * h + 10 * m), 'overdue 2h 10m', 'overdue'],
    [-(3 * d), 'overdue 3d 0h', 'overdue'],
  ])('%d ms before the deadline reads %s (%s)', (left, text, urgency) => {
    expect(countdown(T, T - left)).toEqual({ text, urgency });
  });
});
