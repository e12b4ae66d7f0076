// The rates-over-time shaping: buckets by start time (local days), the report's definitions of
// each rate per bucket, gaps where nothing divides, and runs grouped by order within one unit.
import { describe, expect, it } from 'vitest';
import { MAX_BUCKETS, ratesFromBuckets, ratesOverTime, type Bucketing } from '../../../renderer/insights/rates-over-time.ts';
import { bucketSpan, UNIT_MS } from '../../../shared/run/start-buckets.ts';
import type { RunsOverTime } from '../../../shared/api/workflow-stats.ts';

type Row = Parameters<typeof ratesOverTime>[0][number];
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 4, 14, 9, 0); // a Thursday, 09:00 UTC
const run = (startedAt: number, state: Row['state'], extra: Partial<Row> = {}): Row => ({
  startedAt,
  state,
  finished: ['succeeded', 'failed', 'cancelled'].includes(state),
  retries: 0,
  compensations: 0,
  humanInterventions: 0,
  ...extra,
});
const label = (start: number, by: Bucketing) => `${by}@${new Date(start).toISOString()}`;

describe('ratesOverTime', () => {
  it('has no points without runs', () => {
    expect(ratesOverTime([], 0, label).points).toEqual([]);
  });

  it('groups runs by day over three days, the middle day an empty gap', () => {
    const runs = [
      run(T0, 'succeeded'),
      run(T0 + 3_600_000, 'failed', { retries: 2, compensations: 1 }),
      run(T0 + 2 * DAY, 'succeeded', { humanInterventions: 1 }),
      run(T0 + 2 * DAY + 60_000, 'waiting', { humanInterventions: 1 }),
    ];
    const r = ratesOverTime(runs, 0, label);
    expect(r.by).toBe('day');
    expect(r.points.map((p) => p.runs)).toEqual([2, 0, 2]);
    expect(r.points[0]).toMatchObject({ label: 'day@2026-05-14T00:00:00.000Z', success: 0.5, retry: 0.5, compensation: 0.5, intervention: 0 });
    expect(r.points[1]).toMatchObject({ success: null, retry: null, compensation: null, intervention: null });
    // Success counts finished runs only: the waiting run is not a failure.
    expect(r.points[2]).toMatchObject({ finished: 1, success: 1, retry: 0, intervention: 1 });
  });

  it('starts days at local midnight', () => {
    // 23:30 UTC on the 14th is 01:30 on the 15th at UTC+2 (getTimezoneOffset() = -120).
    const late = Date.UTC(2026, 4, 14, 23, 30);
    const r = ratesOverTime([run(late, 'succeeded'), run(late + 2 * DAY, 'succeeded')], -120, label);
    expect(r.points[0]?.start).toBe(Date.UTC(2026, 4, 14, 22, 0));
  });

  it('takes the smallest unit that gives at most MAX_BUCKETS points', () => {
    const hours = ratesOverTime([run(T0, 'succeeded'), run(T0 + 5 * 3_600_000, 'succeeded')], 0, label);
    expect(hours.by).toBe('hour');
    expect(hours.points).toHaveLength(6);
    const days = ratesOverTime([run(T0, 'succeeded'), run(T0 + 20 * DAY, 'succeeded')], 0, label);
    expect(days.by).toBe('day');
    const weeks = ratesOverTime([run(T0, 'succeeded'), run(T0 + 100 * DAY, 'succeeded')], 0, label);
    expect(weeks.by).toBe('week');
    expect(weeks.points.length).toBeLessThanOrEqual(MAX_BUCKETS);
    const years = ratesOverTime([run(T0, 'succeeded'), run(T0 + 400 * DAY, 'failed')], 0, label);
    expect(years.by).toBe('week');
    expect(years.points.reduce((n, p) => n + p.runs, 0)).toBe(2);
  });

  it('groups runs that all started in one minute by their order', () => {
    const runs = Array.from({ length: 40 }, (_, i) => run(T0 + i * 100, i % 4 === 0 ? 'failed' : 'succeeded'));
    const r = ratesOverTime(runs, 0, label);
    expect(r.by).toBe('runs');
    expect(r.points).toHaveLength(14); // groups of 3 (40 ÷ 15, up), the last of one
    expect(r.points[0]).toMatchObject({ label: '#1–3', runs: 3, success: 2 / 3 });
    expect(r.points.at(-1)).toMatchObject({ label: '#40', runs: 1 });
    expect(r.points.reduce((n, p) => n + p.runs, 0)).toBe(40);
  });

  it('over one bucket gives the report’s own rates', () => {
    const runs = [run(T0, 'succeeded', { retries: 1 }), run(T0 + 10, 'failed', { compensations: 2 }), run(T0 + 20, 'cancelled', { humanInterventions: 1 })];
    const one = ratesOverTime([runs[0]!], 0, label).points[0];
    expect(one).toMatchObject({ runs: 1, success: 1, retry: 1 });
    const all = ratesOverTime(runs, 0, label);
    const sum = all.points.reduce((n, p) => n + p.runs, 0);
    expect(sum).toBe(3);
    expect(all.points.reduce((n, p) => n + p.succeeded, 0) / all.points.reduce((n, p) => n + p.finished, 0)).toBeCloseTo(1 / 3);
  });
});

/** What the server sends for `runs` (engine/metrics/served-report.ts counts its rollups the same way), in time units. */
function serverBuckets(runs: readonly Row[], offsetMin: number): RunsOverTime {
  const starts = runs.map((r) => r.startedAt);
  const span = bucketSpan(Math.min(...starts), Math.max(...starts), offsetMin);
  const by = span.single ? 'minute' : span.by;
  const unit = UNIT_MS[by];
  const from = Math.floor((Math.min(...starts) + span.shiftMs) / unit);
  const to = Math.floor((Math.max(...starts) + span.shiftMs) / unit);
  const buckets = Array.from({ length: to - from + 1 }, (_, i) => {
    const g = runs.filter((r) => Math.floor((r.startedAt + span.shiftMs) / unit) === from + i);
    const n = (f: (r: Row) => boolean): number => g.filter(f).length;
    return { start: (from + i) * unit - span.shiftMs, runs: g.length, finished: n((r) => r.finished), succeeded: n((r) => r.state === 'succeeded'), retried: n((r) => r.retries > 0), compensated: n((r) => r.compensations > 0), intervened: n((r) => r.humanInterventions > 0) };
  });
  return { by, offsetMin, buckets };
}

describe('ratesFromBuckets (the server\'s counts of all runs)', () => {
  const history = [
    run(T0, 'succeeded'),
    run(T0 + 3_600_000, 'failed', { retries: 2, compensations: 1 }),
    run(T0 + 9 * 3_600_000 + 120_000, 'succeeded', { humanInterventions: 1 }),
    run(T0 + 2 * DAY, 'succeeded', { humanInterventions: 1 }),
    run(T0 + 2 * DAY + 60_000, 'waiting', { humanInterventions: 1 }),
    run(T0 + 5 * DAY + 45 * 60_000, 'cancelled'),
  ];

  it('draws the points the page would draw from every run, in zones a whole number of hours off UTC or not', () => {
    for (const offsetMin of [0, -120, -330, -345, -765, 210, 570]) {
      expect(ratesFromBuckets(serverBuckets(history, offsetMin), label), `offset ${offsetMin}`).toEqual(ratesOverTime(history, offsetMin, label));
    }
  });

  it('starts local days at 18:15 UTC for UTC+05:45', () => {
    const r = ratesFromBuckets(serverBuckets(history, -345), label);
    expect(r.by).toBe('day');
    expect(new Date(r.points[0]?.start ?? 0).toISOString()).toBe('2026-05-13T18:15:00.000Z');
    expect(r.points.reduce((n, p) => n + p.runs, 0)).toBe(history.length);
  });

  it('counts runs of one minute by that minute where the page would group them by order', () => {
    const burst = Array.from({ length: 40 }, (_, i) => run(T0 + i * 100, i % 4 === 0 ? 'failed' : 'succeeded'));
    const r = ratesFromBuckets(serverBuckets(burst, 0), label);
    expect(r.by).toBe('minute');
    expect(r.points).toEqual([expect.objectContaining({ runs: 40, finished: 40, succeeded: 30, success: 0.75 })]);
  });
});
