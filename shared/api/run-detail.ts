// `GET /api/runs/:id`: the restart record (what `weft inspect --json` prints, unchanged) plus what
// the app needs to show a run without reading its log: per step the permitted actions; per attempt
// its resolved input, output or error, evidence, idempotency key, variant, meta and epoch-ms
// times; and the run's input, open tasks, parent and child runs, and edge decisions with reasons.
import { Policy } from '../policy/policy-schema.ts';
import { z } from 'zod';
import { EFFECTS, RUN_STATES } from '../definition/names.ts';
import { Workflow } from '../definition/workflow-schema.ts';
import { AttemptMeta } from '../events/attempt-meta.ts';
import { RunCost } from '../cost/run-cost.ts';
import { Covers, EdgeDecision, SettleOutcome } from './event-parts.ts';
import { JsonValue } from './json-value.ts';
import { RunPermittedAction, StepPermittedAction } from './permitted-action.ts';
import { AttemptView, RestartRecord, RunHeader, StepView } from './restart-record.ts';
import { TaskSummary } from './task-summary.ts';

/** An attempt with everything it was given and gave back. */
export const AttemptDetail = AttemptView.extend({
  /** The resolved input the executor received. */
  input: JsonValue,
  /** The output, when the attempt produced one (also work that failed its contract). */
  output: JsonValue.optional(),
  /** The evidence the attempt left; `satisfies` is false for invalid_output or acceptance_not_met. */
  evidence: z.strictObject({ id: z.string(), covers: Covers, satisfies: z.boolean(), pinned: z.literal(true).optional() }).nullable(),
  effect: z.enum(EFFECTS),
  idempotencyKey: z.string().nullable(),
  timeoutMs: z.number().int().nullable(),
  meta: AttemptMeta.nullable(),
  /** When the attempt became due (its activation, or the end of its retry wait). */
  queuedAtMs: z.number().nullable(),
  startedAtMs: z.number(),
  endedAtMs: z.number().nullable(),
});
export type AttemptDetail = z.infer<typeof AttemptDetail>;

/** A step with its attempts in detail and what an operator may do to it now. */
export const StepDetail = StepView.extend({
  attempts: z.array(AttemptDetail),
  /**
   * Only where `attempts` are not all of the step's: how many it has. `GET /api/runs/:id` carries
   * each step's latest 20 (DETAIL_ATTEMPTS, step-attempts.ts); the older ones are paged from
   * `GET /api/runs/:id/steps/:stepId/attempts`. `weft inspect --json` carries every attempt.
   */
  attemptCount: z.number().int().positive().optional(),
  outcome: SettleOutcome.nullable(),
  /** Waits for a person: an escalation, or an unknown outcome to resolve. */
  escalated: z.boolean(),
  /** The step this one offsets, while it runs as a compensation. */
  compensates: z.string().nullable(),
  permittedActions: z.array(StepPermittedAction),
});
export type StepDetail = z.infer<typeof StepDetail>;

/** The run this one is a child of (a subworkflow or map step's attempt). */
export const ParentLink = z.strictObject({
  runId: z.string(),
  stepId: z.string(),
  activation: z.number().int(),
  attempt: z.number().int(),
  index: z.number().int().optional(),
});

/** A run started by one of this run's subworkflow or map steps; state null while it goes on. */
export const ChildRunLink = z.strictObject({
  runId: z.string(),
  stepId: z.string(),
  /** The map item's index (0 for a subworkflow). */
  index: z.number().int().nonnegative(),
  state: z.enum(RUN_STATES).nullable(),
});

/** An edge decision of the run's current pass over the graph, with its reason. */
export const EdgeDecisionView = EdgeDecision.extend({
  from: z.string(),
  to: z.string(),
  /** The seq of the step_settled event that decided it. */
  seq: z.number().int().positive(),
  /** How often a loop edge was taken in this pass. */
  traversals: z.number().int().nonnegative(),
}).strict();

/** The run's header with its input, times, links and run-level permitted actions. */
export const RunDetailHeader = RunHeader.extend({
  input: JsonValue,
  createdAtMs: z.number(),
  updatedAtMs: z.number(),
  key: z.string().nullable(),
  priority: z.number(),
  /** Waiting for a run slot under limits.maxParallelRuns. */
  queued: z.boolean(),
  parent: ParentLink.nullable(),
  forkOf: z.strictObject({ runId: z.string(), fromStep: z.string() }).nullable(),
  /** Only on a replay (weft replay, docs/evolution.md): the run it replays and the definition it ran on. */
  replayOf: z.strictObject({
    runId: z.string(),
    against: z.strictObject({ workflowId: z.string(), version: z.number().int().optional(), file: z.string().optional(), definitionHash: z.string() }),
  }).optional(),
  /** The workspace policy the run started under (docs/policies.md); absent when the workspace had none. */
  policy: z.strictObject({ hash: z.string(), rules: Policy }).optional(),
  /** A failure nothing handles has doomed the run: only compensations start. */
  failing: z.strictObject({ stepId: z.string(), reason: z.string() }).nullable(),
  compensation: z.strictObject({ pending: z.array(z.string()), done: z.array(z.string()) }).nullable(),
  /** The seq of the last event folded: live events after it apply on top. */
  lastSeq: z.number().int().positive(),
  permittedActions: z.array(RunPermittedAction),
});

/**
 * The restart record plus the details above.
 *
 * @example
 * const detail = RunDetail.parse(await (await fetch(`/api/runs/${id}`)).json());
 * detail.steps.find((s) => s.id === 'charge')?.permittedActions; // [{ action: 'resolve', why: ... }]
 */
export const RunDetail = RestartRecord.extend({
  run: RunDetailHeader,
  steps: z.array(StepDetail),
  tasks: z.array(TaskSummary),
  children: z.array(ChildRunLink),
  edges: z.array(EdgeDecisionView),
  /** What the run cost, per step and in all, over every attempt (docs/cost.md); the same as `weft inspect --json` shows. */
  cost: RunCost,
  /** The run's definition snapshot (the version it runs), which the app draws; `GET /api/runs/:id` sends it. */
  definition: Workflow.optional(),
});
export type RunDetail = z.infer<typeof RunDetail>;
