// Small formatters shared by the views: durations and times as a person reads them.

/** 1500 → "1.5s", 90000 → "1m 30s", 7200000 → "2h". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = ms / 1000;
  if (s < 60) return `${Number.isInteger(s) ? s : s.toFixed(1)}s`;
  const m = Math.floor(s / 60);
  const rs = Math.round(s % 60);
  if (m < 60) return rs === 0 ? `${m}m` : `${m}m ${rs}s`;
  const h = Math.floor(m / 60);
  const rm = m % 60;
  if (h < 48) return rm === 0 ? `${h}h` : `${h}h ${rm}m`;
  const d = Math.floor(h / 24);
  const rh = h % 24;
  return rh === 0 ? `${d}d` : `${d}d ${rh}h`;
}

/** A time as the views show it: in the reader's locale, with how far off it is; the exact ISO time for a title. */
export interface WhenWords {
  /** "14:03:07 (3 minutes ago)", "Dec 4, 21:19 (in 2 days)". */
  text: string;
  /** The local time alone: "14:03:07", "Dec 4, 21:19". */
  local: string;
  /** The relative part alone: "3 minutes ago", "in 2 days". */
  relative: string;
  /** The exact time, ISO 8601 in UTC, as the engine records it. */
  iso: string;
}

export interface WhenOptions {
  /** BCP 47 locale; the browser's by default. */
  locale?: string | undefined;
  /** IANA time zone; the browser's by default. */
  timeZone?: string | undefined;
}

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
];

/** "in 2 days", "3 minutes ago", "now": the largest unit the distance fills, rounded. */
export function relativeWords(atMs: number, nowMs: number, locale?: string): string {
  const diff = atMs - nowMs;
  const abs = Math.abs(diff);
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, ms] of UNITS) if (abs >= ms * (unit === 'second' ? 1 : 0.95)) return rtf.format(Math.round(diff / ms), unit);
  return rtf.format(0, 'second');
}

/**
 * The one way the app shows a time (an epoch-ms number or an ISO string): the local time (the
 * date too when it is not today, the year when it is not this year) and the relative time, with
 * the exact ISO time for the element's title. A string that is no time comes back as it is.
 *
 * @example
 * formatWhen('2026-12-03T20:19:41.666Z', Date.parse('2026-12-01T20:19:00Z'), { locale: 'en-US', timeZone: 'UTC' }).text; // "Dec 3, 8:19 PM (in 2 days)"
 */
export function formatWhen(at: number | string, nowMs: number, options: WhenOptions = {}): WhenWords {
  const ms = typeof at === 'number' ? at : Date.parse(at);
  if (!Number.isFinite(ms)) return { text: String(at), local: String(at), relative: '', iso: String(at) };
  const { locale, timeZone } = options;
  const zone = timeZone === undefined ? {} : { timeZone };
  const day = (t: number) => new Date(t).toLocaleDateString('en-CA', zone);
  const year = (t: number) => day(t).slice(0, 4);
  const sameDay = day(ms) === day(nowMs);
  const time = new Date(ms).toLocaleTimeString(locale, { hour: 'numeric', minute: '2-digit', ...(sameDay ? { second: '2-digit' } : {}), ...zone });
  const date = sameDay ? '' : `${new Date(ms).toLocaleDateString(locale, { month: 'short', day: 'numeric', ...(year(ms) === year(nowMs) ? {} : { year: 'numeric' }), ...zone })}, `;
  const local = `${date}${time}`;
  const relative = relativeWords(ms, nowMs, locale);
  return { text: `${local} (${relative})`, local, relative, iso: new Date(ms).toISOString() };
}

/** ISO 8601 UTC times as the engine writes them into its sentences ("due 2026-12-03T20:19:41.666Z"). */
export const ISO_IN_TEXT = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g;

/** A sentence cut at the ISO times in it: text pieces and times, in order (for TimesInText). */
export function splitTimes(text: string): ({ kind: 'text'; text: string } | { kind: 'time'; iso: string })[] {
  const parts: ({ kind: 'text'; text: string } | { kind: 'time'; iso: string })[] = [];
  let from = 0;
  for (const m of text.matchAll(ISO_IN_TEXT)) {
    const at = m.index;
    if (at > from) parts.push({ kind: 'text', text: text.slice(from, at) });
    parts.push({ kind: 'time', iso: m[0] });
    from = at + m[0].length;
  }
  if (from < text.length) parts.push({ kind: 'text', text: text.slice(from) });
  return parts;
}

/** The sentence with each ISO time in it as formatWhen says it (for titles and tooltips, which take plain text). */
export function timesInWords(text: string, nowMs: number, options: WhenOptions = {}): string {
  return text.replace(ISO_IN_TEXT, (iso) => formatWhen(iso, nowMs, options).text);
}
