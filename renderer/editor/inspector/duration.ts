// Durations as people type them ("30s", "5m", "1h 30m", "250ms", or a bare number of
// milliseconds) and as the form shows them back. The document always holds milliseconds.

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const SHOWN = ['d', 'h', 'm', 's', 'ms'] as const;

export type DurationParse = { ok: true; ms: number | undefined } | { ok: false; error: string };

/**
 * Milliseconds from a duration text; `ms: undefined` for an empty text (the field is cleared).
 *
 * @example
 * parseDuration('1m 30s') // { ok: true, ms: 90000 }
 */
export function parseDuration(text: string): DurationParse {
  const t = text.trim().toLowerCase();
  if (t === '') return { ok: true, ms: undefined };
  if (/^\d+$/.test(t)) return { ok: true, ms: Number(t) };
  const part = /(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)(?![a-z])/gy;
  let total = 0;
  let at = 0;
  const compact = t.replace(/\s+/g, ' ');
  while (at < compact.length) {
    if (compact[at] === ' ') {
      at++;
      continue;
    }
    part.lastIndex = at;
    const m = part.exec(compact);
    const unit = m?.[2];
    if (m === null || unit === undefined) return { ok: false, error: `"${text.trim()}" is not a duration: write it as 250ms, 30s, 5m, 2h, 1d or 1h 30m` };
    total += Number(m[1]) * (UNITS[unit] ?? 1);
    at = part.lastIndex;
  }
  if (!Number.isInteger(total)) return { ok: false, error: `"${text.trim()}" is not a whole number of milliseconds` };
  return { ok: true, ms: total };
}

/**
 * The shortest text that reads back as `ms`: 90000 → "1m 30s", 1500 → "1s 500ms", 0 → "0ms".
 * Exact, for a field a person edits; views that only show a duration round it with
 * formatDuration (renderer/core/format.ts: 1500 → "1.5s").
 */
export function exactDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0 || !Number.isInteger(ms)) return String(ms);
  if (ms === 0) return '0ms';
  const parts: string[] = [];
  let rest = ms;
  for (const unit of SHOWN) {
    const size = UNITS[unit] ?? 1;
    const n = Math.floor(rest / size);
    if (n > 0) parts.push(`${n}${unit}`);
    rest -= n * size;
  }
  return parts.join(' ');
}
