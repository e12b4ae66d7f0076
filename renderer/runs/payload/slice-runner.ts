// Runs a generator a slice at a time: as many steps as fit in a time budget, then yields to the
// browser (input, scroll, paint) before the next slice, so work over a value of several megabytes
// never blocks typing or scrolling. The clock and the scheduler are injected (tests drive them).

export interface SliceOptions {
  /** Milliseconds of work per slice. */
  budgetMs?: number;
  now?: () => number;
  /** Runs `f` soon, after the browser had its turn; returns a cancel. */
  schedule?: (f: () => void) => () => void;
}

/** A macrotask through a MessageChannel: unlike setTimeout(0), never clamped to 4 ms. */
export function scheduleSoon(f: () => void): () => void {
  const channel = new MessageChannel();
  let cancelled = false;
  channel.port1.addEventListener('message', () => {
    channel.port1.close();
    if (!cancelled) f();
  });
  // addEventListener (unlike onmessage) needs the port started.
  channel.port1.start();
  channel.port2.postMessage(null);
  return () => {
    cancelled = true;
    channel.port1.close();
  };
}

/**
 * Pulls items from `source` slice by slice; `onSlice` gets each slice's items (and whether the
 * source is done); returning false stops it there. The first slice runs at once. Returns a cancel.
 *
 * @example
 * const cancel = runInSlices(flattenRows(value, '$', open, loaded), (rows, done) => append(rows, done));
 */
export function runInSlices<T>(source: Iterator<T>, onSlice: (items: T[], done: boolean) => boolean | void, o: SliceOptions = {}): () => void {
  const budget = o.budgetMs ?? 8;
  const now = o.now ?? (() => performance.now());
  const schedule = o.schedule ?? scheduleSoon;
  let cancelled = false;
  let cancelNext = (): void => undefined;
  const slice = (): void => {
    if (cancelled) return;
    const until = now() + budget;
    const items: T[] = [];
    for (;;) {
      // Check the clock every 256 items: reading it costs more than a step.
      for (let k = 0; k < 256; k++) {
        const step = source.next();
        if (step.done === true) {
          onSlice(items, true);
          return;
        }
        items.push(step.value);
      }
      if (now() >= until) break;
    }
    if (onSlice(items, false) === false) return;
    cancelNext = schedule(slice);
  };
  slice();
  return () => {
    cancelled = true;
    cancelNext();
  };
}
