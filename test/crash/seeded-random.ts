// A small seeded PRNG (mulberry32) for crash tests: the same seed gives the same workflow and the
// same kill delays, so a failing run can be repeated with WEFT_CRASH_SEED.

export type SeededRandom = () => number;

export function seededRandom(seed: number): SeededRandom {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A whole number in [min, max]. */
export function between(random: SeededRandom, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}
