// The percentiles of stored samples (read by rank windows, as from the per-workflow rollups) merged
// with live ones must be the nearest-rank percentiles of the union, as workflowStats takes them
// over every sample sorted: checked over many random splits, with ties and with either side empty.
import { describe, expect, it } from 'vitest';
import { mergedPercentiles } from '../../engine/metrics/rolled-up-stats.ts';
import { percentile } from '../../engine/metrics/workflow-stats.ts';
import { seededRandom } from '../../engine/runtime/virtual-clock.ts';

function reference(values: readonly number[]) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), max: sorted[sorted.length - 1], count: sorted.length };
}

describe('mergedPercentiles', () => {
  it('equals the nearest-rank percentiles of all samples sorted', () => {
    const random = seededRandom(7);
    for (let round = 0; round < 2000; round++) {
      const spread = [3, 50, 1000][round % 3] ?? 3;
      const stored = Array.from({ length: Math.floor(random() * 60) }, () => Math.floor(random() * spread) - 1).sort((a, b) => a - b);
      const live = Array.from({ length: Math.floor(random() * (round % 5 === 0 ? 40 : 4)) }, () => Math.floor(random() * spread) - 1);
      const reads: number[] = [];
      const merged = mergedPercentiles(
        stored.length,
        (offset, limit) => {
          reads.push(limit);
          return stored.slice(offset, offset + limit);
        },
        () => stored[stored.length - 1],
        live,
      );
      expect(merged, `stored ${JSON.stringify(stored)} live ${JSON.stringify(live)}`).toEqual(reference([...stored, ...live]));
      // Only a window around each rank is read: at most one more value than there are live samples.
      for (const n of reads) expect(n).toBeLessThanOrEqual(live.length + 1);
    }
  });
});
