// One clock for every countdown on screen: a single interval, running only while something shows
// a countdown, and each countdown re-renders alone (not the whole list) as it ticks.
import { useSyncExternalStore } from 'react';

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
    }, 1000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** The time now, to the second. */
export function useSecond(): number {
  return useSyncExternalStore(subscribe, () => now);
}
