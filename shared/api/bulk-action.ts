// One action on many runs at once (`weft bulk`, `POST /api/bulk/preview|apply`, the runs list's
// selection): which runs (a filter like the runs list's, or the ids a person ticked), what to do
// to each (retry, resolve, cancel, replay on another version, migrate to another version), and
// the answer, one row per run: what it would do, what it did, or why it was refused.
import { z } from 'zod';
import { RUN_STATES } from '../definition/names.ts';
import { RunId, StepId, WorkflowId } from './api-ids.ts';
import { Instant } from './instant.ts';
import { JsonValue } from './json-value.ts';
import { REPLAY_VERDICTS } from './replay-verdicts.ts';
import { WhoAndWhy } from './who-and-why.ts';

/** The actions `weft bulk` and the bulk routes take today, in the order the docs list them. */
export const BULK_ACTIONS = ['retry', 'resolve', 'cancel', 'replay', 'migrate'] as const;
export type BulkActionName = (typeof BULK_ACTIONS)[number];

/** Most runs one bulk request selects (a filter's `limit` at most, or the ids given). */
export const MAX_BULK_RUNS = 1000;

/** How many runs a filter selects when it gives no `limit`. */
export const DEFAULT_BULK_LIMIT = 100;

/**
 * Which runs: every field narrows the selection (all must hold). Newest first, at most `limit`.
 * `failingStep` is where a failed or stuck run went wrong, as the runs list names it.
 *
 * @example
 * BulkFilter.parse({ workflow: 'record-update', state: 'failed', createdAfter: '2026-12-01' });
 */
export const BulkFilter = z.strictObject({
  workflow: WorkflowId.optional(),
  version: z.coerce.number().int().positive().optional(),
  state: z.enum(RUN_STATES).optional(),
  failingStep: StepId.optional(),
  /** Runs created at or after this time. */
  createdAfter: Instant.optional(),
  /** Runs created before this time. */
  createdBefore: Instant.optional(),
  limit: z.coerce.number().int().min(1).max(MAX_BULK_RUNS).optional(),
});
export type BulkFilter = z.infer<typeof BulkFilter>;

/** The selection: a filter, or the runs a person picked (ids or unique prefixes). */
const Selection = {
  filter: BulkFilter.optional(),
  runs: z.array(RunId).min(1, 'give at least one run').max(MAX_BULK_RUNS, `at most ${MAX_BULK_RUNS} runs at once`).optional(),
};

/** Retry, in each run, the step given, else every step that failed (as `weft retry RUN STEP` does for each). */
export const BulkRetry = z.strictObject({ action: z.literal('retry'), step: StepId.optional(), ...Selection, ...WhoAndWhy });

/** Resolve, in each run, the unknown step given, else its one unknown step, as succeeded or failed (`weft resolve`). */
export const BulkResolve = z.strictObject({
  action: z.literal('resolve'),
  step: StepId.optional(),
  as: z.enum(['succeeded', 'failed'], { error: 'give "as": "succeeded" or "failed" (what the step really did)' }),
  evidence: JsonValue.optional(),
  ...Selection,
  ...WhoAndWhy,
});

/** Cancel each run (`weft cancel`). */
export const BulkCancel = z.strictObject({ action: z.literal('cancel'), ...Selection, ...WhoAndWhy });

/** Replay each run on version `version` of its workflow (`weft replay RUN --against WORKFLOW@VERSION`): a replay is stored apart and changes nothing of the run. */
export const BulkReplay = z.strictObject({ action: z.literal('replay'), version: z.coerce.number().int().positive(), ...Selection });

/** Move each unfinished run to version `toVersion` of its workflow (`weft migrate RUN --to VERSION`): only runs whose plan is safe move. */
export const BulkMigrate = z.strictObject({
  action: z.literal('migrate'),
  toVersion: z.coerce.number().int().positive(),
  map: z.record(StepId, StepId).optional(),
  decide: z.record(StepId, z.enum(['skip', 'run'])).optional(),
  ...Selection,
  ...WhoAndWhy,
});

/**
 * A bulk request: the action and its settings, with exactly one of `filter` and `runs`.
 *
 * @example
 * BulkRequest.parse({ action: 'retry', filter: { workflow: 'record-update', state: 'failed' }, reason: 'the API is back' });
 */
export const BulkRequest = z
  .discriminatedUnion('action', [BulkRetry, BulkResolve, BulkCancel, BulkReplay, BulkMigrate], {
    error: (iss) => (iss.code === 'invalid_union' ? `unknown bulk action; give "action" as one of ${BULK_ACTIONS.join(', ')}` : undefined),
  })
  .refine((r) => (r.filter === undefined) !== (r.runs === undefined), { message: 'give either "filter" (which runs) or "runs" (their ids), not both or neither', path: ['filter'] });
export type BulkRequest = z.infer<typeof BulkRequest>;

/** What became of one run: `would` (a preview), `done`, or `refused` with the reason. */
export const BulkRowStatus = z.enum(['would', 'done', 'refused']);
export type BulkRowStatus = z.infer<typeof BulkRowStatus>;

/** One run of a bulk answer. `what` says what it will do or did; `state` is the run's state after (or now, for a preview). */
export const BulkRow = z.strictObject({
  runId: z.string(),
  workflowId: z.string(),
  version: z.number().int().positive(),
  action: z.enum(BULK_ACTIONS),
  status: BulkRowStatus,
  what: z.string().optional(),
  reason: z.string().optional(),
  state: z.enum(RUN_STATES).optional(),
  /** A replay's verdict and the replay run (action `replay`, status `done`). */
  replay: z.strictObject({ replayRunId: z.string(), verdict: z.enum(REPLAY_VERDICTS) }).optional(),
});
export type BulkRow = z.infer<typeof BulkRow>;

/** How many rows ended each way. */
export const BulkCounts = z.strictObject({ selected: z.number().int(), would: z.number().int(), done: z.number().int(), refused: z.number().int() });
export type BulkCounts = z.infer<typeof BulkCounts>;

/**
 * The answer to a preview or an apply (and what `weft bulk --json` prints): one row per selected
 * run, newest first, and the counts. `dryRun` is true for a preview, which changes nothing.
 */
export const BulkResult = z.strictObject({ action: z.enum(BULK_ACTIONS), dryRun: z.boolean(), rows: z.array(BulkRow), counts: BulkCounts });
export type BulkResult = z.infer<typeof BulkResult>;

/** The counts of a list of rows. */
export function bulkCounts(rows: readonly BulkRow[]): BulkCounts {
  const n = (s: BulkRowStatus): number => rows.filter((r) => r.status === s).length;
  return { selected: rows.length, would: n('would'), done: n('done'), refused: n('refused') };
}
