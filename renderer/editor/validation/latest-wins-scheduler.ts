// Debounces requests to a slow worker so that the newest input wins: at most one request in
// flight and one waiting, and an answer for an input that has since been replaced is dropped.
// Timers are injected, so tests drive it with fake time.

export interface SchedulerTimers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export interface SchedulerOptions<T> {
  delayMs: number;
  timers: SchedulerTimers;
  /** Starts the work for `input`; the answer comes back through `settle(id)`. */
  send(id: number, input: T): void;
  /** Called when `pending` changes. */
  onPending?(pending: boolean): void;
}

export class LatestWinsScheduler<T> {
  private latest: { input: T; version: number } | null = null;
  private version = 0;
  private timer: { handle: unknown } | null = null;
  private inFlight: { id: number; version: number } | null = null;
  private queued = false;
  private nextId = 1;
  private wasPending = false;

  constructor(private readonly o: SchedulerOptions<T>) {}

  /** True from a submit until the answer for the newest input has settled. */
  get pending(): boolean {
    return this.timer !== null || this.queued || (this.inFlight !== null && this.inFlight.version === this.version);
  }

  /** The id of the request the worker is working on, if any (a crashed worker settles it). */
  get inFlightId(): number | null {
    return this.inFlight?.id ?? null;
  }

  /** A new input: it replaces any input not yet sent, and is sent after `delayMs` of quiet. */
  submit(input: T): void {
    this.version++;
    this.latest = { input, version: this.version };
    this.clearTimer();
    this.timer = { handle: this.o.timers.set(() => this.fire(), this.o.delayMs) };
    this.notify();
  }

  /** Sends the waiting input now instead of after the delay (a document just opened). */
  flush(): void {
    if (this.timer === null) return;
    this.clearTimer();
    this.fire();
  }

  /**
   * The answer to request `id` arrived. True when it is for the newest input, so it may be
   * shown; false when it is stale or unknown, and is to be dropped.
   */
  settle(id: number): boolean {
    if (this.inFlight === null || this.inFlight.id !== id) return false;
    const fresh = this.inFlight.version === this.version;
    this.inFlight = null;
    if (this.queued) this.sendLatest();
    this.notify();
    return fresh;
  }

  /** Forgets every input: nothing waiting is sent, and the answer in flight will be dropped. */
  cancel(): void {
    this.version++;
    this.latest = null;
    this.queued = false;
    this.clearTimer();
    this.notify();
  }

  private fire(): void {
    this.timer = null;
    if (this.inFlight !== null) this.queued = true;
    else this.sendLatest();
    this.notify();
  }

  private sendLatest(): void {
    this.queued = false;
    const latest = this.latest;
    if (latest === null) return;
    const id = this.nextId++;
    this.inFlight = { id, version: latest.version };
    this.o.send(id, latest.input);
  }

  private clearTimer(): void {
    if (this.timer === null) return;
    this.o.timers.clear(this.timer.handle);
    this.timer = null;
  }

  private notify(): void {
    const pending = this.pending;
    if (pending === this.wasPending) return;
    this.wasPending = pending;
    this.o.onPending?.(pending);
  }
}
