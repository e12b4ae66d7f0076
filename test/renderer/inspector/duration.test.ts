import { describe, expect, it } from 'vitest';
import { exactDuration, parseDuration } from '../../../renderer/editor/inspector/duration.ts';

describe('parseDuration', () => {
  it.each([
    ['', undefined],
    ['  ', undefined],
    ['1500', 1500],
    ['250ms', 250],
    ['30s', 30_000],
    ['5m', 300_000],
    ['2h', 7_200_000],
    ['1d', 86_400_000],
    ['1h 30m', 5_400_000],
    ['1h30m', 5_400_000],
    ['1.5s', 1500],
    ['1M 5S', 65_000],
    ['0', 0],
  ])('%j → %s', (text, ms) => {
    expect(parseDuration(text)).toEqual({ ok: true, ms });
  });

  it.each(['5 minutes', 'abc', '-5s', '1.5', '30x', '0.5ms', 's'])('refuses %j with a hint', (text) => {
    const r = parseDuration(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(text.trim());
  });
});

describe('exactDuration', () => {
  it.each([
    [0, '0ms'],
    [250, '250ms'],
    [1500, '1s 500ms'],
    [30_000, '30s'],
    [90_000, '1m 30s'],
    [3_600_000, '1h'],
    [86_400_000 + 60_000, '1d 1m'],
  ])('%d → %s', (ms, text) => {
    expect(exactDuration(ms)).toBe(text);
  });

  it('reads back what it writes', () => {
    for (const ms of [1, 999, 1000, 61_001, 7_322_000, 172_800_000]) expect(parseDuration(exactDuration(ms))).toEqual({ ok: true, ms });
  });
});
