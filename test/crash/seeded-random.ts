// Seeded randomness for crash tests: the same seed gives the same workflow and the same kill
// delays, so a failing run can be repeated with WEFT_CRASH_SEED. The generator is the engine's.
import type { Random } from '../../engine/time/clock.ts';

export { seededRandom } from '../../engine/runtime/virtual-clock.ts';
export type SeededRandom = Random;

/** A whole number in [min, max]. */
export function between(random: SeededRandom, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}
