// The runs the app shows, which are the runs the live stream subscribes to: the open run page's
// run, the unfinished runs of the runs list as shown, the runs of the task cards open. Each view
// says what it shows with `useWatchRuns`; the session resubscribes when the set changes.
import { useEffect } from 'react';
import { MAX_SUBSCRIBED_RUNS } from '../../shared/api/stream-messages.ts';

const counts = new Map<string, number>();
const listeners = new Set<() => void>();
let scheduled = false;

/** The runs shown now, at most as many as one subscription may name. */
export function watchedRuns(): string[] {
  return [...counts.keys()].slice(0, MAX_SUBSCRIBED_RUNS);
}

/** Calls `listener` (once per turn) when the set changes; returns the function that stops it. */
export function onWatchedRunsChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function changed(): void {
  if (scheduled) return;
  scheduled = true;
  queueMicrotask(() => {
    scheduled = false;
    for (const listener of listeners) listener();
  });
}

/** Adds `ids` to the watched set; returns the function that takes them out again. */
export function watchRuns(ids: readonly string[]): () => void {
  let grew = false;
  for (const id of ids) {
    const n = counts.get(id) ?? 0;
    counts.set(id, n + 1);
    if (n === 0) grew = true;
  }
  if (grew) changed();
  return () => {
    let shrank = false;
    for (const id of ids) {
      const n = (counts.get(id) ?? 1) - 1;
      if (n <= 0) {
        counts.delete(id);
        shrank = true;
      } else counts.set(id, n);
    }
    if (shrank) changed();
  };
}

/** Watches `ids` while the component shows them. */
export function useWatchRuns(ids: readonly string[]): void {
  const key = ids.join('\n');
  useEffect(() => (key === '' ? undefined : watchRuns(key.split('\n'))), [key]);
}
