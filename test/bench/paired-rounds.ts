// Interleaved rounds for a with/without comparison on a shared, busy machine: each round
// measures every variant (the baseline and the cases compared with it) back to back, in an order
// that rotates from round to round (A B C, B C A, C A B…), so the machine's load, which drifts
// over seconds, weighs on a round's samples alike and no variant always runs first or last.
// Each case is compared with the baseline of its own round; the figure is the median of those
// per-round ratios, over every round (none is dropped), with their spread beside it so a reader
// sees how much the noise moved them.
import { median } from './benchmark.ts';

/**
 * Runs `rounds` rounds of `measure(variant)` for each of `variants`, the order rotating by one
 * each round; returns each round's samples by variant.
 */
export async function rotatedRounds<K extends string, T>(rounds: number, variants: readonly K[], measure: (variant: K) => Promise<T>): Promise<Map<K, T>[]> {
  const out: Map<K, T>[] = [];
  for (let round = 0; round < rounds; round++) {
    const samples = new Map<K, T>();
    for (let i = 0; i < variants.length; i++) {
      const variant = variants[(round + i) % variants.length];
      if (variant !== undefined) samples.set(variant, await measure(variant));
    }
    out.push(samples);
  }
  return out;
}

/** The median of the per-round ratios case/baseline, the lowest and the highest. */
export interface RatioSummary {
  median: number;
  low: number;
  high: number;
  rounds: number;
}

/**
 * Summarises `value(case) / value(baseline)` over the rounds that measured both; undefined when
 * none did.
 */
export function pairedRatio<K extends string, T>(rounds: readonly Map<K, T>[], baseline: K, compared: K, value: (x: T) => number): RatioSummary | undefined {
  const ratios: number[] = [];
  for (const round of rounds) {
    const a = round.get(baseline);
    const b = round.get(compared);
    if (a === undefined || b === undefined) continue;
    const r = value(b) / value(a);
    if (Number.isFinite(r)) ratios.push(r);
  }
  if (ratios.length === 0) return undefined;
  return { median: median([...ratios]), low: Math.min(...ratios), high: Math.max(...ratios), rounds: ratios.length };
}

/** The median of `value` over the rounds that measured `variant`. */
export function medianOf<K extends string, T>(rounds: readonly Map<K, T>[], variant: K, value: (x: T) => number): number | undefined {
  const xs: number[] = [];
  for (const round of rounds) {
    const x = round.get(variant);
    if (x !== undefined) xs.push(value(x));
  }
  return xs.length === 0 ? undefined : median(xs);
}

/** `ratio - 1` as a signed percentage with one decimal: 1.083 is "+8.3%", 0.95 is "-5.0%". */
export function percentChange(ratio: number): string {
  const p = (ratio - 1) * 100;
  return `${p >= 0 ? '+' : '-'}${Math.abs(p).toFixed(1)}%`;
}
