// Times on screen: a <time> element with the local time and how far off it is ("Dec 4, 21:19
// (in 2 days)"), its title the exact ISO time; and the engine's sentences with the ISO times in
// them shown the same way. Both read one shared clock, so "3 minutes ago" stays true.
import { tickingClock } from './ticking-clock.ts';
import { formatWhen, splitTimes } from './format.ts';

/** How often relative times are brought up to date. */
const TICK_MS = 10_000;
/** The time now, to TICK_MS, shared by every time on screen. */
export const useWhenClock: () => number = tickingClock(TICK_MS);

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
