// One row of the runs list (`GET /api/runs`): today's `weft runs --json` row, plus what the app's
// runs list shows: start, end and duration in epoch ms, and where a run failed.
import { z } from 'zod';
import { RUN_STATES } from '../definition/names.ts';
import { RunId, StepId, WorkflowId } from './api-ids.ts';
import { Instant } from './instant.ts';
import { SettleOutcome } from './event-parts.ts';

/** One row of `weft runs --json` today. */
export const RunsListRow = z.strictObject({
  id: z.string(),
  workflowId: z.string(),
  version: z.number().int().positive(),
  state: z.enum(RUN_STATES),
  inputRevision: z.number().int().positive(),
  createdAt: z.iso.datetime(),
  /** Only on a debug run (breakpoints or pinned outputs): its outputs may not be real. */
  debug: z.literal(true).optional(),
  /** Only on a run that waits for a daily budget (docs/budgets.md): it starts when the next UTC day begins. */
  waitingFor: z.literal('budget').optional(),
});
export type RunsListRow = z.infer<typeof RunsListRow>;

/** What `weft runs --json` prints. */
export const RunsListJson = z.strictObject({ runs: z.array(RunsListRow) });

/** Where a failed run (or one that needs a person) went wrong, from engine/metrics/run-metrics.ts. */
/** Where a run went wrong: the step whose failure nothing handled, else the last one with a bad outcome. */
export const RunFailure = z.strictObject({ step: z.string().nullable(), outcome: SettleOutcome.nullable(), reason: z.string() });
export type RunFailure = z.infer<typeof RunFailure>;

/**
 * A run in the runs list.
 *
 * @example
 * RunSummary.parse({ ...row, startedAtMs, updatedAtMs, endedAtMs: null, durationMs: 1200, failure: null, parentRunId: null });
 */
export const RunSummary = RunsListRow.extend({
  startedAtMs: z.number(),
  updatedAtMs: z.number(),
  endedAtMs: z.number().nullable(),
  /** To the end, or to the time of the answer for a run still going. */
  durationMs: z.number().nonnegative(),
  failure: RunFailure.nullable(),
  /** Set on a child run of a subworkflow or map step. */
  parentRunId: z.string().nullable(),
});
export type RunSummary = z.infer<typeof RunSummary>;

/** Largest page of runs a client may ask for. */
export const MAX_RUN_PAGE = 500;

/** Longest text `q` of the runs list may search for. */
export const MAX_RUN_SEARCH = 200;

/** The query of `GET /api/runs?workflow=&state=&after=&limit=&q=` (query strings become numbers). */
export const RunListQuery = z.strictObject({
  workflow: WorkflowId.optional(),
  state: z.enum(RUN_STATES).optional(),
  /** The `next` of the previous page. */
  after: RunId.optional(),
  limit: z.coerce.number().int().min(1).max(MAX_RUN_PAGE).optional(),
  /** Text the workflow id or the run id contains (taken literally; the app's runs filter). */
  q: z.string().min(1).max(MAX_RUN_SEARCH).optional(),
  /** Runs of this version of their workflow. */
  version: z.coerce.number().int().positive().optional(),
  /** Failed or stuck runs that went wrong at this step (the list's "Failed at"). */
  failingStep: StepId.optional(),
  /** Runs created at or after this time (an ISO date or date-time). */
  createdAfter: Instant.optional(),
  /** Runs created before this time. */
  createdBefore: Instant.optional(),
  /** `replay`: list the replays (weft replay) instead of the runs; they are never mixed. */
  kind: z.enum(['run', 'replay']).optional(),
});
export type RunListQuery = z.infer<typeof RunListQuery>;

/** A page of runs, newest first; `next` asks for the page after it, null at the end. */
export const RunSummaryPage = z.strictObject({ runs: z.array(RunSummary), next: z.string().nullable() });
export type RunSummaryPage = z.infer<typeof RunSummaryPage>;
