// The shared timer of far deadlines (engine/runtime/deadline-timers.ts), which the policy's
// escalations after time use: each deadline fires once at its time, in order (ties in the order
// added), a cancelled one never fires, the clock holds one timer armed for the earliest, and none
// once nothing is pending. On the scenarios' virtual clock.
import { describe, expect, it } from 'vitest';
import { DeadlineTimers } from '../../engine/runtime/deadline-timers.ts';
import { VirtualClock } from '../../engine/runtime/virtual-clock.ts';

function setUp() {
  const clock = new VirtualClock(0);
  const timers = new DeadlineTimers(clock);
  const fired: [string, number][] = [];
  const add = (name: string, at: number) => timers.add(at, () => fired.push([name, clock.now()]));
  const drain = () => {
    while (clock.advance());
  };
  return { clock, timers, fired, add, drain };
}

describe('deadlines on one clock timer', () => {
  it('fires each at its time, earliest first and ties in the order added, with one clock timer armed for the earliest', () => {
    const { clock, timers, fired, add, drain } = setUp();
    add('late', 300);
    add('tie-1', 200);
    add('early', 100);
    add('tie-2', 200);
    expect(timers.pending).toBe(4);
    expect(clock.nextDue()).toBe(100);
    drain();
    expect(fired).toEqual([['early', 100], ['tie-1', 200], ['tie-2', 200], ['late', 300]]);
    expect(timers.pending).toBe(0);
    expect(clock.nextDue()).toBeUndefined();
  });

  it('never fires a cancelled deadline, re-arms for the next, and leaves no clock timer once nothing is pending', () => {
    const { clock, timers, fired, add, drain } = setUp();
    const first = add('first', 100);
    const second = add('second', 200);
    first();
    first(); // twice: counted once
    expect(timers.pending).toBe(1);
    second();
    expect(timers.pending).toBe(0);
    expect(clock.nextDue()).toBeUndefined();
    add('third', 50);
    drain();
    expect(fired).toEqual([['third', 50]]);
  });

  it('a deadline added from a firing one, or added earlier than the armed one, fires at its own time', () => {
    const { clock, timers, fired, add, drain } = setUp();
    add('far', 1_000);
    timers.add(10, () => {
      fired.push(['near', clock.now()]);
      add('from-near', 20);
    });
    drain();
    expect(fired).toEqual([['near', 10], ['from-near', 20], ['far', 1_000]]);
  });

  it('drops cancelled entries when they are most of the heap, and still fires the live ones in order', () => {
    const { timers, fired, add, drain } = setUp();
    const cancels = Array.from({ length: 500 }, (_, k) => add(`c${k}`, 10_000 + k));
    const kept = [700, 50, 400, 3_000];
    for (const at of kept) add(`k${at}`, at);
    for (const c of cancels) c();
    expect(timers.pending).toBe(kept.length);
    expect((timers as unknown as { heap: unknown[] }).heap.length).toBeLessThan(2 * 64);
    drain();
    expect(fired).toEqual([...kept].sort((a, b) => a - b).map((at) => [`k${at}`, at]));
  });
});

/** Virtual time whose timers count as weak (as the system clock's unref'd ones): how many were set. */
class WeakClock extends VirtualClock {
  weakTimers = 0;
  setWeakTimer(ms: number, fn: () => void): () => void {
    this.weakTimers++;
    return this.setTimer(ms, fn);
  }
}

describe('deadlines on a clock with weak timers', () => {
  it('keeps the timer armed when nothing is pending, so runs one after another arm it once, and an idle firing does nothing', () => {
    const clock = new WeakClock(0);
    const timers = new DeadlineTimers(clock);
    const fired: number[] = [];
    // Runs one after another, each with a deadline an hour after its start, each finished at once.
    for (let k = 0; k < 5; k++) timers.add(3_600_000 + k, () => fired.push(k))();
    expect(clock.weakTimers).toBe(1);
    expect(timers.pending).toBe(0);
    // The one left armed fires with nothing to do, and sets no other.
    while (clock.advance());
    expect(fired).toEqual([]);
    expect(clock.weakTimers).toBe(1);
    // One that is not cancelled fires at its time, from a timer armed again for it.
    timers.add(clock.now() + 10, () => fired.push(clock.now()));
    while (clock.advance());
    expect(fired).toEqual([3_600_000 + 10]);
    expect(clock.weakTimers).toBe(2);
  });
});
