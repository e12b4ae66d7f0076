// The workflow's rates over time, from the report's per-run rows: runs are grouped by when they
// started (minute, hour, day or week: the smallest unit that gives at most MAX_BUCKETS points),
// and each group's rates follow the report's own definitions (docs/metrics.md): success of
// finished runs; retry, compensation and intervention of all runs. Runs that all started within
// one unit are grouped by their order instead, so a burst of runs still draws a line. When the
// report lists only the newest runs, the server's counts of all runs give the points instead
// (ratesFromBuckets), in the same units (shared/run/start-buckets.ts).
import type { RunMetrics, RunsOverTime, StartBucket } from '../../shared/api/workflow-stats.ts';
import { bucketSpan, MAX_BUCKETS, UNIT_MS } from '../../shared/run/start-buckets.ts';

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

export { MAX_BUCKETS };

type Row = Pick<RunMetrics, 'startedAt' | 'state' | 'finished' | 'retries' | 'compensations' | 'humanInterventions'>;

/**
 * Rates per time bucket. `offsetMin` is the viewer's `Date#getTimezoneOffset()`, so days start at
 * local midnight; `format` labels a bucket start (injected: tests need no locale).
 */
export function ratesOverTime(runs: readonly Row[], offsetMin: number, format: (start: number, by: Bucketing) => string): RatesOverTime {
  if (runs.length === 0) return { by: 'day', points: [] };
  const sorted = [...runs].sort((a, b) => a.startedAt - b.startedAt);
  const span = bucketSpan(sorted[0]?.startedAt ?? 0, sorted[sorted.length - 1]?.startedAt ?? 0, offsetMin);
  if (span.single && sorted.length > 1) return byOrder(sorted);
  const unit = UNIT_MS[span.by];
  const groups: Row[][] = Array.from({ length: span.to - span.from + 1 }, () => []);
  for (const r of sorted) groups[Math.floor((r.startedAt + span.shiftMs) / unit) - span.from]?.push(r);
  return { by: span.by, points: groups.map((g, i) => point(countsOf(g), (span.from + i) * unit - span.shiftMs, format((span.from + i) * unit - span.shiftMs, span.by))) };
}

/**
 * The same rates from the server's counts of all runs by start (GET /api/stats `runsOverTime`,
 * bucketed in the viewer's zone with the same units): what the page draws when the report lists
 * only the newest runs.
 */
export function ratesFromBuckets(over: RunsOverTime, format: (start: number, by: Bucketing) => string): RatesOverTime {
  return { by: over.by, points: over.buckets.map((b) => point(b, b.start, format(b.start, over.by))) };
}

function byOrder(sorted: readonly Row[]): RatesOverTime {
  const size = Math.ceil(sorted.length / Math.min(sorted.length, MAX_BUCKETS / 2));
  const points: RatePoint[] = [];
  for (let i = 0; i < sorted.length; i += size) {
    const g = sorted.slice(i, i + size);
    const label = g.length === 1 ? `#${i + 1}` : `#${i + 1}–${i + g.length}`;
    points.push(point(countsOf(g), g[0]?.startedAt ?? 0, label));
  }
  return { by: 'runs', points };
}

type Counts = Omit<StartBucket, 'start'>;

function countsOf(g: readonly Row[]): Counts {
  return {
    runs: g.length,
    finished: g.filter((r) => r.finished).length,
    succeeded: g.filter((r) => r.state === 'succeeded').length,
    retried: g.filter((r) => r.retries > 0).length,
    compensated: g.filter((r) => r.compensations > 0).length,
    intervened: g.filter((r) => r.humanInterventions > 0).length,
  };
}

function point(c: Counts, start: number, label: string): RatePoint {
  const of = (n: number, d: number): number | null => (d === 0 ? null : n / d);
  return {
    label,
    start,
    runs: c.runs,
    finished: c.finished,
    succeeded: c.succeeded,
    success: of(c.succeeded, c.finished),
    retry: of(c.retried, c.runs),
    compensation: of(c.compensated, c.runs),
    intervention: of(c.intervened, c.runs),
  };
}
