// How the Insights page groups runs by when they started, shared by the page (over the runs it
// has) and the server (over its per-minute counters of all runs, GET /api/stats `runsOverTime`):
// the smallest unit of minute, hour, day or week that gives at most MAX_BUCKETS groups, in the
// viewer's time zone. The viewer's offset is a whole number of minutes (Date#getTimezoneOffset),
// so every bucket edge falls on a UTC minute edge, and counts kept per UTC minute rebucket
// exactly, also for zones such as +05:30 or +05:45.

export type TimeUnit = 'minute' | 'hour' | 'day' | 'week';

export const MAX_BUCKETS = 30;

export const UNIT_MS: Readonly<Record<TimeUnit, number>> = { minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 7 * 86_400_000 };

const UNITS: readonly TimeUnit[] = ['minute', 'hour', 'day', 'week'];

/** The buckets of a span of starts: `from`..`to` are bucket numbers, floor((start + shiftMs) / UNIT_MS[by]). */
export interface BucketSpan {
  by: TimeUnit;
  shiftMs: number;
  from: number;
  to: number;
  /** Every start fell in one bucket of the smallest unit that fits: the page then groups several runs by their order instead. */
  single: boolean;
}

/** The viewer's offset (minutes, as Date#getTimezoneOffset gives it) as the shift that moves a UTC time to local time. */
export const shiftOf = (offsetMin: number): number => -offsetMin * 60_000;

/**
 * The unit to group starts from `first` to `last` (epoch ms) in: the smallest that gives at most
 * MAX_BUCKETS buckets, else weeks (every one listed).
 */
export function bucketSpan(first: number, last: number, offsetMin: number): BucketSpan {
  const shiftMs = shiftOf(offsetMin);
  for (const by of UNITS) {
    const from = Math.floor((first + shiftMs) / UNIT_MS[by]);
    const to = Math.floor((last + shiftMs) / UNIT_MS[by]);
    if (to - from + 1 <= MAX_BUCKETS) return { by, shiftMs, from, to, single: to === from };
  }
  return { by: 'week', shiftMs, from: Math.floor((first + shiftMs) / UNIT_MS.week), to: Math.floor((last + shiftMs) / UNIT_MS.week), single: false };
}
