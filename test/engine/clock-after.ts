// A real clock whose timers fire when they are due AND once a condition the test names holds:
// for "the reply was lost" tests, where a step's timeout must come after its effect reached a
// real process or server. A timeout is allowed to fire late (that is what timeouts do on a busy
// machine); here it never fires before the effect, however slow the machine. The engine's timers
// all wait alike (timeouts, retries, deadlines), so use it where none must fire sooner.
import type { Clock } from '../../engine/time/clock.ts';
import { waitUntil } from '../wait-until.ts';

/** The system clock, with every timer held until `effect()` holds (or its wait gives up, when they fire and the test fails on what it finds). */
export function clockAfter(effect: () => boolean, what: string): Clock {
  const ready = waitUntil(effect, what, { pollMs: 10 }).catch(() => undefined);
  return {
    now: () => Date.now(),
    setTimer(ms, fn) {
      let cancelled = false;
      const t = setTimeout(() => void ready.then(() => (cancelled ? undefined : fn())), Math.max(0, Math.min(ms, 2_147_483_647)));
      return () => {
        cancelled = true;
        clearTimeout(t);
      };
    },
  };
}
