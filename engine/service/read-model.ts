// The heavy reads of the server, written once over a Store: the runs page, a run's detail, an
// events page, a run's timeline and a workflow's stats. The EngineService answers them on the
// engine's thread (the CLI, scenarios, tests); the server's read worker (read-worker-entry.ts)
// answers the same functions over a read-only connection of its own, so that a read that takes
// long never holds the engine or /api/health. Time comes in as `asOf`: the service's clock
// decides it (a virtual clock in scenarios), never the thread that computes.
import { isFinishedRunState } from '../../shared/definition/names.ts';
import type { RunDetail } from '../../shared/api/run-detail.ts';
import type { RunSummary, RunSummaryPage, RunFailure } from '../../shared/api/run-summary.ts';
import type { Timeline } from '../../shared/api/timeline.ts';
import type { RunEvent } from '../../shared/events/run-event.ts';
import { runDetail, stepAttempts } from '../../shared/run/run-detail.ts';
import { elideAttempts, elideRunDetail } from '../../shared/run/elide-values.ts';
import type { RunModel } from '../../shared/run/run-model.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { DEFAULT_ATTEMPT_PAGE } from '../../shared/api/read-limits.ts';
import type { StepAttemptsPage, StepAttemptsQuery } from '../../shared/api/step-attempts.ts';
import { timeline } from '../../shared/run/timeline.ts';
import { runMetrics, type RunMetrics } from '../metrics/run-metrics.ts';
import type { WorkflowReport } from '../metrics/stats.ts';
import { servedWorkflowReport } from '../metrics/served-report.ts';
import type { Store } from '../store/store.ts';
import type { RunListFilter } from '../store/run-list.ts';
import type { RunReader } from './run-reader.ts';
import { ServiceError } from './service-error.ts';

const iso = (ms: number): string => new Date(ms).toISOString();

/** A page of the runs list, newest first, as of `now` (the duration of a run still going). */
export function runSummaryPage(store: Store, filter: RunListFilter, now: number): RunSummaryPage {
  const { rows, next } = store.runPage(filter);
  const debug = store.debugRunIds(rows.map((r) => r.id));
  const budget = store.spend.waitingForBudget(rows.filter((r) => r.state === 'waiting').map((r) => r.id));
  // The failing step is read from each run's log, so it narrows the page after the store's query:
  // a page may hold fewer rows than its limit, and `next` still goes on from the store's page.
  const summaries = rows.map((r): RunSummary => {
    const ended = isFinishedRunState(r.state);
    const failure = r.state === 'failed' || r.state === 'needs_attention' ? failureOf(store, r.id, now) : null;
    return {
      id: r.id,
      workflowId: r.workflowId,
      version: r.version,
      state: r.state,
      inputRevision: r.inputRevision,
      createdAt: iso(r.createdAt),
      ...(debug.has(r.id) ? { debug: true as const } : {}),
      ...(budget.has(r.id) ? { waitingFor: 'budget' as const } : {}),
      startedAtMs: r.createdAt,
      updatedAtMs: r.updatedAt,
      endedAtMs: ended ? r.updatedAt : null,
      durationMs: Math.max(0, (ended ? r.updatedAt : now) - r.createdAt),
      failure: failure === null ? null : { step: failure.step, outcome: failure.outcome, reason: failure.reason },
      parentRunId: null,
    };
  });
  return { runs: filter.failingStep === undefined ? summaries : summaries.filter((r) => r.failure?.step === filter.failingStep), next };
}

/** Where a run went wrong: from its rollup once it is finished, else from a fold of its log. */
function failureOf(store: Store, runId: string, asOf: number): RunFailure | null {
  const json = store.rolledUpMetricsOf(runId);
  const metrics: Pick<RunMetrics, 'failure'> = json === undefined ? runMetrics(store.readEvents(runId), asOf) : rolledUpFailure(json);
  return metrics.failure;
}

/** The failure in a rollup (the store wrote it with JSON.stringify of runMetrics; run-rollups.ts). */
function rolledUpFailure(json: string): Pick<RunMetrics, 'failure'> {
  return JSON.parse(json) as Pick<RunMetrics, 'failure'>;
}

/** Where a read gets a run's model: a RunReader folds its whole log; the read worker keeps models (folded-runs.ts). */
export interface RunModels {
  resolveRunId(idOrPrefix: string): string;
  fold(runId: string): RunModel;
  /** The run's stored summary, when it is as new as the log (FoldedRuns.summary); none without. */
  summary?(runId: string, latestAttempts: number): { detail: RunDetail; workflow: Workflow } | undefined;
}

/** How the server cuts a run's detail: values over `elideOver` bytes as stubs, only each step's latest `latestAttempts` attempts. */
export interface DetailCut {
  elideOver?: number;
  latestAttempts?: number;
}

/**
 * The run's RunDetail (shared/run/run-detail.ts) with its definition snapshot, which the app
 * draws. With `elideOver`, values over that many bytes come as ElidedValue stubs (the server's
 * answer; the full values are fetched by path with RunReader.runValue); with `latestAttempts`,
 * each step carries only its latest attempts and its `attemptCount` (older ones: stepAttemptsOf).
 */
export function runDetailOf(models: RunModels, idOrPrefix: string, cut: DetailCut = {}): RunDetail {
  const runId = models.resolveRunId(idOrPrefix);
  const stored = cut.latestAttempts === undefined ? undefined : models.summary?.(runId, cut.latestAttempts);
  if (stored !== undefined) return { ...(cut.elideOver === undefined ? stored.detail : elideRunDetail(stored.detail, cut.elideOver)), definition: stored.workflow };
  const model = models.fold(runId);
  const detail = runDetail(model, cut.latestAttempts === undefined ? {} : { latestAttempts: cut.latestAttempts });
  return { ...(cut.elideOver === undefined ? detail : elideRunDetail(detail, cut.elideOver)), definition: model.workflow };
}

/**
 * A page of step `stepId`'s attempts (shared/api/step-attempts.ts): the latest `limit` of those at
 * places before `before` (all when undefined), values over `elideOver` bytes as stubs. An unknown
 * step is not found; a `before` past the step's last attempt is bad input.
 */
export function stepAttemptsOf(models: RunModels, idOrPrefix: string, stepId: string, q: StepAttemptsQuery, elideOver: number): StepAttemptsPage {
  const model = models.fold(models.resolveRunId(idOrPrefix));
  const s = model.steps.get(stepId);
  if (s === undefined) {
    const ids = model.workflow.steps.map((x) => x.id);
    throw new ServiceError('not-found', `run ${model.runId} has no step "${stepId}"; its steps are ${ids.slice(0, 20).join(', ')}${ids.length > 20 ? ', …' : ''}`, 'stepId');
  }
  const total = s.attempts.length;
  const before = q.before ?? total;
  if (before > total) {
    throw new ServiceError('bad-input', `before=${before} is past the last attempt of step "${stepId}", which has ${total}; ask with before at most ${total} (a page's \`from\`), or without it for the latest`, 'before');
  }
  const from = Math.max(0, before - (q.limit ?? DEFAULT_ATTEMPT_PAGE));
  const attempts = elideAttempts(stepId, stepAttempts(model, stepId, from, before), from, elideOver);
  return { runId: model.runId, stepId, attempts, from, total, before: from === 0 ? null : from };
}

/** A page of a run's events; with `elide`, values in their data over that many bytes come as stubs. */
export function eventPageOf(reader: RunReader, idOrPrefix: string, after: number, limit: number, elide?: number): { events: RunEvent[]; next: number | null } {
  const { events, next } = reader.eventPage(idOrPrefix, after, limit, elide);
  return { events, next };
}

/** Where the run's time went, as spans, with the totals of its metrics, as of `asOf`. */
export function timelineOf(store: Store, idOrPrefix: string, asOf: number): Timeline {
  return timeline(store.readEvents(store.resolveRunId(idOrPrefix)), asOf);
}

/** What GET /api/stats asks (StatsQuery of shared/api/route-params.ts): a version, how many runs to list, the viewer's time zone offset. */
export interface StatsAsk {
  version?: number | undefined;
  runs?: number | undefined;
  tz?: number | undefined;
}

/**
 * A workflow's figures over its runs in this store (docs/metrics.md), as of `asOf`, with the
 * newest `ask.runs` runs listed (servedWorkflowReport).
 */
export function statsOf(store: Store, workflowId: string, ask: StatsAsk, asOf: number): WorkflowReport {
  if (!store.workflowVersions().has(workflowId)) throw new ServiceError('not-found', `workflow "${workflowId}" has no runs in this store`);
  return servedWorkflowReport(store, workflowId, { ...definedOf({ version: ask.version, runs: ask.runs, tzOffsetMin: ask.tz }), asOf });
}

/** The fields of `o` that are not undefined (optional fields stay absent under exactOptionalPropertyTypes). */
export function definedOf<T extends object>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}
