// The server bench's rounds (test/bench/paired-rounds.ts): every variant is measured once per
// round, the order rotating so none always goes first, and a case is compared with the baseline
// of its own round, over every round, by the median of the ratios.
import { describe, expect, it } from 'vitest';
import { medianOf, pairedRatio, percentChange, rotatedRounds } from './paired-rounds.ts';

describe('rotatedRounds', () => {
  it('measures every variant once a round, rotating the order from round to round', async () => {
    const order: string[] = [];
    const rounds = await rotatedRounds(4, ['none', 'page', 'watch'] as const, async (v) => {
      order.push(v);
      return order.length;
    });
    expect(order).toEqual(['none', 'page', 'watch', 'page', 'watch', 'none', 'watch', 'none', 'page', 'none', 'page', 'watch']);
    expect(rounds.map((r) => [...r.keys()].sort())).toEqual(Array.from({ length: 4 }, () => ['none', 'page', 'watch']));
    // Each round keeps what its own measurements gave.
    expect(rounds[1]?.get('page')).toBe(4);
    expect(rounds[1]?.get('none')).toBe(6);
  });
});

describe('pairedRatio', () => {
  it('is the median of each round’s case / baseline, with the lowest and highest, over every round', () => {
    const rounds = [
      new Map([['none', 100], ['page', 90]]),
      new Map([['none', 50], ['page', 60]]),
      new Map([['none', 200], ['page', 100]]),
      new Map([['none', 10], ['page', 9.5]]),
    ];
    // Ratios 0.9, 1.2, 0.5, 0.95: their median, not the ratio of the medians.
    expect(pairedRatio(rounds, 'none', 'page', (x) => x)).toEqual({ median: 0.925, low: 0.5, high: 1.2, rounds: 4 });
    expect(medianOf(rounds, 'none', (x) => x)).toBe(75);
    expect(pairedRatio(rounds, 'none', 'other' as 'page', (x) => x)).toBeUndefined();
  });

  it('prints a ratio as a signed change', () => {
    expect(percentChange(1.083)).toBe('+8.3%');
    expect(percentChange(0.95)).toBe('-5.0%');
  });
});
