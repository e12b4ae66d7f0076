// Times as the app shows them (issue 21, point 7): local time with a relative time, the exact ISO
// time kept for a title; and the engine's sentences with their ISO times said the same way.
import { describe, expect, it } from 'vitest';
import { formatWhen, relativeWords, splitTimes, timesInWords } from '../../../renderer/core/format.ts';

const NOW = Date.parse('2026-12-01T20:19:00Z');
const EN = { locale: 'en-US', timeZone: 'UTC' };

describe('formatWhen', () => {
  it.each([
    ['2026-12-03T20:19:41.666Z', 'Dec 3, 8:19 PM', 'in 2 days'],
    ['2026-12-01T20:16:00.000Z', '8:16:00 PM', '3 minutes ago'],
    ['2026-12-01T20:19:00.000Z', '8:19:00 PM', 'now'],
    ['2026-12-02T08:19:00.000Z', 'Dec 2, 8:19 AM', 'in 12 hours'],
    ['2025-11-20T10:00:00.000Z', 'Nov 20, 2025, 10:00 AM', 'last year'],
  ])('%s reads "%s (%s)"', (iso, local, relative) => {
    const w = formatWhen(iso, NOW, EN);
    expect(w).toEqual({ text: `${local} (${relative})`, local, relative, iso });
    expect(formatWhen(Date.parse(iso), NOW, EN)).toEqual(w);
  });

  it('shows the local time of the reader’s zone, with the date when it is another day there', () => {
    expect(formatWhen('2026-12-01T20:16:00.000Z', NOW, { locale: 'en-US', timeZone: 'Asia/Tokyo' }).local).toBe('5:16:00 AM');
    expect(formatWhen('2026-12-01T14:00:00.000Z', NOW, { locale: 'en-US', timeZone: 'Asia/Tokyo' }).local).toBe('Dec 1, 11:00 PM');
  });

  it('gives back a string that is no time as it is', () => {
    expect(formatWhen('soon', NOW, EN).text).toBe('soon');
  });

  it('rounds to the largest unit the distance fills', () => {
    expect(relativeWords(NOW + 2 * 86_400_000 - 5000, NOW, 'en-US')).toBe('in 2 days');
    expect(relativeWords(NOW - 100_000, NOW, 'en-US')).toBe('2 minutes ago');
  });
});

describe('the ISO times in the engine’s sentences', () => {
  it('cuts a sentence at its times', () => {
    expect(splitTimes('decide: task for anyone, due 2026-12-03T20:19:41.666Z')).toEqual([
      { kind: 'text', text: 'decide: task for anyone, due ' },
      { kind: 'time', iso: '2026-12-03T20:19:41.666Z' },
    ]);
    expect(splitTimes('no time here')).toEqual([{ kind: 'text', text: 'no time here' }]);
  });

  it('says them in words for a title', () => {
    expect(timesInWords('retry: attempt 1.2 due 2026-12-01T20:22:00Z after http_500', NOW, EN)).toBe('retry: attempt 1.2 due 8:22:00 PM (in 3 minutes) after http_500');
  });
});
