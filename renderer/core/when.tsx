// Times on screen: a <time> element with the local time and how far off it is ("Dec 4, 21:19
// (in 2 days)"), its title the exact ISO time; and the engine's sentences with the ISO times in
// them shown the same way. Both read one shared clock, so "3 minutes ago" stays true.
import { useSyncExternalStore } from 'react';
import { formatWhen, splitTimes } from './format.ts';

/** How often relative times are brought up to date. */
const TICK_MS = 10_000;
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
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** The time now, to TICK_MS, shared by every time on screen. */
export function useWhenClock(): number {
  return useSyncExternalStore(subscribe, () => now);
}

/** One time (epoch ms or ISO). `part` shows the local time or the relative time alone (the title keeps both). */
export function When({ at, part, testId }: { at: number | string; part?: 'local' | 'relative'; testId?: string }) {
  const nowMs = useWhenClock();
  const w = formatWhen(at, nowMs);
  return (
    <time dateTime={w.iso} title={part === undefined ? w.iso : `${w.text} · ${w.iso}`} data-testid={testId}>
      {part === undefined ? w.text : w[part]}
    </time>
  );
}

/** A sentence of the engine's with its ISO times shown as When shows them. */
export function TimesInText({ text }: { text: string }) {
  const parts = splitTimes(text);
  if (parts.length === 1 && parts[0]?.kind === 'text') return <>{text}</>;
  return (
    <>
      {parts.map((p, i) => (p.kind === 'text' ? <span key={i}>{p.text}</span> : <When key={i} at={p.iso} />))}
    </>
  );
}
