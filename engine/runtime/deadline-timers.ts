// Far deadlines on one clock timer (the policy's escalations after time, policy-escalation.ts):
// most of them never fire, because the step or the run finishes long before. A timer of the
// clock's own per run cost a setTimeout and a clearTimeout each (a timer list of its own in
// Node, for a duration no other timer has); here a run's deadline is an entry of a heap, the
// clock's one timer is armed for the earliest, and a cancelled entry is only marked, and dropped
// when it comes to the top or when marked ones are most of the heap. On a clock with weak timers
// (the system clock: they do not keep the process alive) the timer stays armed when nothing is
// pending, so runs that start and finish one after another arm it once, not once each; on
// virtual time it goes, so no timer is left for the driver to advance to.
import type { Clock } from '../time/clock.ts';

interface Entry {
  at: number;
  /** Order of adding: entries due at the same time fire in the order they were added. */
  seq: number;
  fn: () => void;
  /** Cancelled, or fired. */
  done: boolean;
}

const before = (a: Entry, b: Entry): boolean => a.at < b.at || (a.at === b.at && a.seq < b.seq);

/** Heaps with fewer entries are never compacted: dropping marked ones at the top keeps them small. */
const COMPACT_FROM = 64;

export class DeadlineTimers {
  private heap: Entry[] = [];
  private seq = 0;
  /** Entries not done. */
  private alive = 0;
  private armed: { at: number; cancel: () => void } | undefined;

  constructor(private readonly clock: Clock) {}

  /** Calls `fn` at `at` (the clock's ms) unless the returned function is called first. */
  add(at: number, fn: () => void): () => void {
    const e: Entry = { at, seq: this.seq++, fn, done: false };
    this.push(e);
    this.alive++;
    if (this.armed === undefined || at < this.armed.at) this.arm(at);
    return () => this.cancel(e);
  }

  /** How many deadlines are pending (for tests). */
  get pending(): number {
    return this.alive;
  }

  private cancel(e: Entry): void {
    if (e.done) return;
    e.done = true;
    this.alive--;
    if (this.alive === 0) {
      this.heap = [];
      // A weak timer left armed finds nothing when it fires; another would keep the process (or a virtual clock) waiting for nothing.
      if (this.clock.setWeakTimer === undefined) {
        this.armed?.cancel();
        this.armed = undefined;
      }
    } else if (this.heap.length >= COMPACT_FROM && this.alive * 2 < this.heap.length) {
      this.heap = this.heap.filter((x) => !x.done);
      for (let i = (this.heap.length >> 1) - 1; i >= 0; i--) this.down(i);
    }
  }

  private arm(at: number): void {
    this.armed?.cancel();
    const fire = (): void => {
      this.armed = undefined;
      this.fire();
    };
    const ms = at - this.clock.now();
    const cancel = this.clock.setWeakTimer === undefined ? this.clock.setTimer(ms, fire) : this.clock.setWeakTimer(ms, fire);
    this.armed = { at, cancel };
  }

  /** The timer went off: every entry now due runs (in order), and the timer is armed for the next. */
  private fire(): void {
    const now = this.clock.now();
    const due: (() => void)[] = [];
    for (let top = this.heap[0]; top !== undefined && (top.done || top.at <= now); top = this.heap[0]) {
      this.pop();
      if (top.done) continue;
      top.done = true;
      this.alive--;
      due.push(top.fn);
    }
    const next = this.heap[0];
    if (next !== undefined) this.arm(next.at);
    for (const fn of due) fn();
  }

  private push(e: Entry): void {
    const h = this.heap;
    h.push(e);
    for (let i = h.length - 1; i > 0; ) {
      const p = (i - 1) >> 1;
      const parent = h[p] as Entry;
      if (!before(e, parent)) break;
      h[i] = parent;
      h[p] = e;
      i = p;
    }
  }

  private pop(): void {
    const h = this.heap;
    const last = h.pop();
    if (last === undefined || h.length === 0) return;
    h[0] = last;
    this.down(0);
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && before(h[l] as Entry, h[m] as Entry)) m = l;
      if (r < h.length && before(h[r] as Entry, h[m] as Entry)) m = r;
      if (m === i) return;
      const x = h[i] as Entry;
      h[i] = h[m] as Entry;
      h[m] = x;
      i = m;
    }
  }
}

/** One set of deadline timers per clock: the engines of a process on the system clock share its timer. */
const byClock = new WeakMap<Clock, DeadlineTimers>();

export function deadlineTimers(clock: Clock): DeadlineTimers {
  let t = byClock.get(clock);
  if (t === undefined) byClock.set(clock, (t = new DeadlineTimers(clock)));
  return t;
}
