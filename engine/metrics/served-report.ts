// The workflow report GET /api/stats answers: the figures over every run (from the per-workflow
// rollups and a fold of each run still going: rolled-up-stats.ts), the metrics of the newest runs
// only, and what the Insights page needs over all runs instead of each run's row: per edge how
// many runs took it, and the runs counted by when they started in the viewer's time zone. Over
// 100,000 runs this reads a few hundred rows, not 100,000 rollups (docs/metrics.md).
import { STATS_RUNS } from '../../shared/api/read-limits.ts';
import type { RunMetrics, RunsOverTime, StartBucket, WorkflowReport } from '../../shared/api/workflow-stats.ts';
import { bucketSpan, UNIT_MS, type TimeUnit } from '../../shared/run/start-buckets.ts';
import type { Store } from '../store/store.ts';
import type { WorkflowRollups } from '../store/workflow-rollups.ts';
import { runMetrics } from './run-metrics.ts';
import { rolledUpStats } from './rolled-up-stats.ts';
import { reportedDefinition } from './stats.ts';

export interface ServedReportOptions {
  version?: number;
  asOf: number;
  /** How many of the newest runs to list (STATS_RUNS by default). */
  runs?: number;
  /** The viewer's Date#getTimezoneOffset() in minutes (0 by default). */
  tzOffsetMin?: number;
}

const parsed = (json: string): RunMetrics => JSON.parse(json) as RunMetrics;

/** The report of `workflowId` for the HTTP route: `stats` over all runs, `runs` the newest only. */
export function servedWorkflowReport(store: Store, workflowId: string, opts: ServedReportOptions): WorkflowReport {
  const definition = reportedDefinition(store, workflowId, opts.version);
  const rollups = store.workflowRollups();
  const fold = (id: string): RunMetrics => runMetrics(store.readEvents(id), opts.asOf);
  // Every run without a rollup is folded; in a store without the per-workflow rollups (older
  // schema, opened by tests) that is every run, as workflowReport does.
  const live = new Map<string, RunMetrics>();
  if (rollups.kept()) {
    const rolled = rollups.states(workflowId, opts.version).reduce((n, c) => n + c.runs, 0);
    for (const id of rollups.unrolledRuns(workflowId, opts.version, rolled)) live.set(id, fold(id));
  } else {
    for (const [id, json] of store.rolledUpRuns(workflowId, opts.version)) live.set(id, json === null ? fold(id) : parsed(json));
  }
  const liveRuns = [...live.values()];
  const { stats, edgeRuns } = rolledUpStats(rollups, workflowId, opts.version, liveRuns, definition);
  const limit = opts.runs ?? STATS_RUNS;
  const newest = limit === 0 ? [] : rollups.newestRuns(workflowId, opts.version, limit);
  const runs = newest.map(([id, json]) => (json === null ? (live.get(id) ?? fold(id)) : parsed(json)));
  return {
    stats,
    runs,
    runsOmitted: Math.max(0, stats.runs - runs.length),
    edgeRuns,
    runsOverTime: runsOverTime(rollups, workflowId, opts.version, liveRuns, opts.tzOffsetMin ?? 0),
  };
}

/**
 * All runs counted by start in the viewer's buckets (shared/run/start-buckets.ts). Where the page
 * would group runs of one minute or hour by their order, these count them by minute instead:
 * the order of each run is what the counters do not keep.
 */
export function runsOverTime(rollups: WorkflowRollups, workflowId: string, version: number | undefined, live: readonly RunMetrics[], offsetMin: number): RunsOverTime {
  const span = rollups.startSpan(workflowId, version);
  let first = span === undefined ? Infinity : span.first * 60_000;
  let last = span === undefined ? -Infinity : span.last * 60_000;
  for (const r of live) {
    first = Math.min(first, r.startedAt);
    last = Math.max(last, r.startedAt);
  }
  if (first === Infinity) return { by: 'day', offsetMin, buckets: [] };
  const chosen = bucketSpan(first, last, offsetMin);
  const by: TimeUnit = chosen.single ? 'minute' : chosen.by;
  const unit = UNIT_MS[by];
  const from = Math.floor((first + chosen.shiftMs) / unit);
  const to = Math.floor((last + chosen.shiftMs) / unit);
  const buckets: StartBucket[] = Array.from({ length: to - from + 1 }, (_, i) => ({ start: (from + i) * unit - chosen.shiftMs, runs: 0, finished: 0, succeeded: 0, retried: 0, compensated: 0, intervened: 0 }));
  for (const c of rollups.startBuckets(workflowId, version, unit, chosen.shiftMs)) {
    const x = buckets[c.bucket - from];
    if (x === undefined) continue;
    x.runs += c.runs;
    x.finished += c.runs;
    x.succeeded += c.succeeded;
    x.retried += c.retried;
    x.compensated += c.compensated;
    x.intervened += c.intervened;
  }
  for (const r of live) {
    const x = buckets[Math.floor((r.startedAt + chosen.shiftMs) / unit) - from];
    if (x === undefined) continue;
    x.runs += 1;
    if (r.finished) x.finished += 1;
    if (r.state === 'succeeded') x.succeeded += 1;
    if (r.retries > 0) x.retried += 1;
    if (r.compensations > 0) x.compensated += 1;
    if (r.humanInterventions > 0) x.intervened += 1;
  }
  return { by, offsetMin, buckets };
}
