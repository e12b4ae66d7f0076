// One clock for every countdown on screen: a single interval, running only while something shows
// a countdown, and each countdown re-renders alone (not the whole list) as it ticks.
import { tickingClock } from '../core/ticking-clock.ts';

/** The time now, to the second. */
export const useSecond: () => number = tickingClock(1000);
