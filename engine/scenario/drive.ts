// Drives an engine in virtual time: let it work until it is idle, then move the clock to the next
// due timer, and repeat until nothing is left to do (or a bound is hit, so a scenario that would
// loop forever stops with an error instead of hanging).
import type { Engine } from '../runtime/engine.ts';
import type { VirtualClock } from '../runtime/virtual-clock.ts';

/** Lets queued ticks and settled promises run (a macrotask turn lets the engine's setImmediate fire). */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Waits until the engine is idle (three quiet turns in a row), or until `stop` says so. */
export async function settleEngine(engine: Engine, stop: () => boolean = () => false): Promise<void> {
  for (let quiet = 0; quiet < 3; ) {
    await turn();
    if (stop()) return;
    quiet = engine.idle ? quiet + 1 : 0;
  }
}

/** Drives the engine until no timer is left, or until `stop` says so (the engine stopped on a failure of its store). */
export async function driveUntilQuiet(engine: Engine, clock: VirtualClock, maxTimers = 100_000, stop: () => boolean = () => false): Promise<void> {
  for (let fired = 0; ; fired++) {
    await settleEngine(engine, stop);
    if (stop()) return;
    if (fired >= maxTimers) throw new Error(`the scenario was still running after ${maxTimers} timers; does a loop never end?`);
    if (!clock.advance()) return;
  }
}
