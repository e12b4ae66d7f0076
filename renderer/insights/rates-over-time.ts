// The workflow's rates over time, from the report's per-run rows: runs are grouped by when they
// started (minute, hour, day or week: the smallest unit that gives at most MAX_BUCKETS points),
// and each group's rates follow the report's own definitions (docs/metrics.md): success of
// finished runs; retry, compensation and intervention of all runs. Runs that all started within
// one unit are grouped by their order instead, so a burst of runs still draws a line.
import type { RunMetrics } from '../../shared/api/workflow-stats.ts';

export type Bucketing = 'minute' | 'hour' | 'day' | 'week' | 'runs';

export interface RatePoint {
  /** What the x axis shows: a start time (local), or the runs' numbers ("#4–6"). */
  label: string;
  /** Start of the bucket, epoch ms (of its first run when grouped by order). */
  start: number;
  runs: number;
  finished: number;
  succeeded: number;
  /** Fractions 0..1; null when the group has no run to divide by (a gap in the line). */
  success: number | null;
  retry: number | null;
  compensation: number | null;
  intervention: number | null;
}

export interface RatesOverTime {
  by: Bucketing;
  points: RatePoint[];
}

export const MAX_BUCKETS = 30;
const UNITS: readonly [Exclude<Bucketing, 'runs'>, number][] = [
  ['minute', 60_000],
  ['hour', 3_600_000],
  ['day', 86_400_000],
  ['week', 7 * 86_400_000],
];

type Row = Pick<RunMetrics, 'startedAt' | 'state' | 'finished' | 'retries' | 'compensations' | 'humanInterventions'>;

/**
 * Rates per time bucket. `offsetMin` is the viewer's `Date#getTimezoneOffset()`, so days start at
 * local midnight; `format` labels a bucket start (injected: tests need no locale).
 */
export function ratesOverTime(runs: readonly Row[], offsetMin: number, format: (start: number, by: Bucketing) => string): RatesOverTime {
  if (runs.length === 0) return { by: 'day', points: [] };
  const sorted = [...runs].sort((a, b) => a.startedAt - b.startedAt);
  const first = sorted[0]?.startedAt ?? 0;
  const last = sorted[sorted.length - 1]?.startedAt ?? 0;
  const shift = -offsetMin * 60_000;
  for (const [by, unit] of UNITS) {
    const from = Math.floor((first + shift) / unit);
    const to = Math.floor((last + shift) / unit);
    if (to - from + 1 > MAX_BUCKETS) continue;
    if (to === from && sorted.length > 1) return byOrder(sorted);
    const groups: Row[][] = Array.from({ length: to - from + 1 }, () => []);
    for (const r of sorted) groups[Math.floor((r.startedAt + shift) / unit) - from]?.push(r);
    return { by, points: groups.map((g, i) => point(g, (from + i) * unit - shift, format((from + i) * unit - shift, by))) };
  }
  // Longer than MAX_BUCKETS weeks: weeks still, every one listed (a long line is still readable).
  const week = 7 * 86_400_000;
  const from = Math.floor((first + shift) / week);
  const groups = new Map<number, Row[]>();
  for (const r of sorted) {
    const k = Math.floor((r.startedAt + shift) / week);
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  const to = Math.floor((last + shift) / week);
  const points: RatePoint[] = [];
  for (let k = from; k <= to; k++) points.push(point(groups.get(k) ?? [], k * week - shift, format(k * week - shift, 'week')));
  return { by: 'week', points };
}

function byOrder(sorted: readonly Row[]): RatesOverTime {
  const size = Math.ceil(sorted.length / Math.min(sorted.length, MAX_BUCKETS / 2));
  const points: RatePoint[] = [];
  for (let i = 0; i < sorted.length; i += size) {
    const g = sorted.slice(i, i + size);
    const label = g.length === 1 ? `#${i + 1}` : `#${i + 1}–${i + g.length}`;
    points.push(point(g, g[0]?.startedAt ?? 0, label));
  }
  return { by: 'runs', points };
}

function point(g: readonly Row[], start: number, label: string): RatePoint {
  const finished = g.filter((r) => r.finished).length;
  const succeeded = g.filter((r) => r.state === 'succeeded').length;
  const of = (n: number, d: number): number | null => (d === 0 ? null : n / d);
  return {
    label,
    start,
    runs: g.length,
    finished,
    succeeded,
    success: of(succeeded, finished),
    retry: of(g.filter((r) => r.retries > 0).length, g.length),
    compensation: of(g.filter((r) => r.compensations > 0).length, g.length),
    intervention: of(g.filter((r) => r.humanInterventions > 0).length, g.length),
  };
}
