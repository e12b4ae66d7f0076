// Time and randomness enter the engine only through these (nothing in the engine calls
// Date.now, setTimeout or Math.random directly), so tests and scenario runs can drive virtual
// time and a seeded random source, and a replay is deterministic.

export interface Clock {
  now(): number;
  /** Calls `fn` after `ms` (at least 0); returns a function that cancels it. */
  setTimer(ms: number, fn: () => void): () => void;
  /**
   * As setTimer, for a timer that must not keep the process alive by itself (far deadlines that a
   * restarted engine arms again from the log). A clock without it (virtual time) uses setTimer.
   */
  setWeakTimer?(ms: number, fn: () => void): () => void;
}

export type Random = () => number;

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(ms, fn) {
    const t = setTimeout(fn, Math.max(0, Math.min(ms, 2_147_483_647)));
    return () => clearTimeout(t);
  },
  setWeakTimer(ms, fn) {
    const t = setTimeout(fn, Math.max(0, Math.min(ms, 2_147_483_647)));
    t.unref();
    return () => clearTimeout(t);
  },
};

export const systemRandom: Random = () => Math.random();

/** Run ids sort by creation time: `r` + base-36 milliseconds + 6 random base-36 digits. */
export function newRunId(now: number, random: Random): string {
  let tail = '';
  for (let i = 0; i < 6; i++) tail += Math.floor(random() * 36).toString(36);
  return `r${now.toString(36)}${tail}`;
}
