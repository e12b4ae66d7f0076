// One clock per tick length for everything on screen that shows time passing: a single interval,
// running only while something subscribes, and each subscriber re-renders alone as it ticks. The
// tasks' countdowns tick every second (tasks/second-clock.ts), relative times every 10 s (when.tsx).
import { useSyncExternalStore } from 'react';

/** A hook giving the time now (ms since the epoch), brought up to date every `tickMs`. */
export function tickingClock(tickMs: number): () => number {
  const listeners = new Set<() => void>();
  let now = Date.now();
  let timer: ReturnType<typeof setInterval> | null = null;

  function subscribe(listener: () => void): () => void {
    listeners.add(listener);
    if (timer === null) {
      now = Date.now();
      timer = setInterval(() => {
        now = Date.now();
        for (const l of listeners) l();
      }, tickMs);
    }
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && timer !== null) {
        clearInterval(timer);
        timer = null;
      }
    };
  }
  const read = (): number => now;
  return () => useSyncExternalStore(subscribe, read);
}
