// Virtual time for scenario tests: timers fire only when the driver advances the clock, always
// in due order (ties in the order they were set), so days of deadlines and backoffs run in
// milliseconds and the same scenario yields the same timestamps every time.
import type { Clock, Random } from '../time/clock.ts';

interface Timer {
  at: number;
  order: number;
  fn: () => void;
  cancelled: boolean;
}

export class VirtualClock implements Clock {
  private t: number;
  private order = 0;
  private timers: Timer[] = [];

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  setTimer(ms: number, fn: () => void): () => void {
    const timer: Timer = { at: this.t + Math.max(0, ms), order: this.order++, fn, cancelled: false };
    this.timers.push(timer);
    return () => {
      timer.cancelled = true;
    };
  }

  /** When the next live timer is due, or undefined when none is set. */
  nextDue(): number | undefined {
    this.timers = this.timers.filter((x) => !x.cancelled);
    let best: Timer | undefined;
    for (const x of this.timers) if (best === undefined || x.at < best.at || (x.at === best.at && x.order < best.order)) best = x;
    return best?.at;
  }

  /** Moves time to the next due moment and fires every timer due then, in order. Returns false if none. */
  advance(): boolean {
    const at = this.nextDue();
    if (at === undefined) return false;
    this.t = Math.max(this.t, at);
    // nextDue has just dropped cancelled timers; a timer cancelled by one that fires is skipped below.
    const due = this.timers.filter((x) => x.at <= this.t).sort((a, b) => a.at - b.at || a.order - b.order);
    this.timers = this.timers.filter((x) => x.at > this.t);
    for (const x of due) if (!x.cancelled) x.fn();
    return true;
  }
}

/** A small seeded random source (mulberry32): the same seed gives the same sequence. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
