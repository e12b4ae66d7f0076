// The event log is the truth of every run (principle 4): all run and step state is a fold of
// these events. Stored as rows (run, seq, time, type, step, activation, attempt, data, reason);
// `data` is the JSON below, per type. Readers parse rows with `RunEvent` so a corrupt or future
// row is caught at the boundary instead of deep in the fold.
import { z } from 'zod';
import { EFFECTS, HUMAN_TASKS, ON_EXPIRE, OPERATOR_ACTIONS, RUN_STATES } from '../definition/names.ts';
import type { AttemptErrorCode } from './attempt-error-codes.ts';
import { AttemptMeta } from './attempt-meta.ts';
import { AttemptRoute } from './attempt-route.ts';
import { Workflow } from '../definition/workflow-schema.ts';
import { Policy } from '../policy/policy-schema.ts';

const Covers = z.object({
  inputHash: z.string(),
  definitionVersion: z.number().int(),
  inputRevision: z.number().int(),
});
export type Covers = z.infer<typeof Covers>;

// Any string parses (a stored author code, or a code from a newer Weft), but the engine writes only
// codes of the union: a misspelt code in an emitted event does not compile.
const ErrorInfo = z.object({ code: z.custom<AttemptErrorCode>((v) => typeof v === 'string', 'an error code must be a string'), message: z.string() });

/**
 * How a step settles. `budget_exceeded`: its run's budget stopped it before an attempt (docs/budgets.md).
 * `stale`: its `revalidate` check, run when it resumed, found its assumptions out of date (docs/long-running.md).
 * `partial`: its last attempt finished part of the work (attempt_partial, docs/long-running.md#partial-completion).
 */
export const SETTLE_OUTCOMES = ['succeeded', 'failed', 'unknown', 'timed_out', 'rejected', 'expired', 'budget_exceeded', 'stale', 'partial', 'skipped', 'cancelled'] as const;
export const SettleOutcome = z.enum(SETTLE_OUTCOMES);
export type SettleOutcome = z.infer<typeof SettleOutcome>;

/**
 * A debug run's settings: the steps it pauses before (breakpoints) and the outputs that settle
 * pinned steps without calling them (pins, by step id). Part of run_created, so a restarted
 * engine folds them back.
 */
export const RunDebugSettings = z.object({ breakpoints: z.array(z.string()), pins: z.record(z.string(), z.unknown()) });
export type RunDebugSettings = z.infer<typeof RunDebugSettings>;

/**
 * What a replay ran (weft replay, docs/evolution.md): the source run's input on another
 * definition, named by version (`workflow@version`) or by file, with that definition's own hash
 * (the stored snapshot of a draft carries a replay-only version number; this hash is the draft's).
 */
export const ReplayOf = z.object({
  runId: z.string(),
  against: z.object({ workflowId: z.string(), version: z.number().int().optional(), file: z.string().optional(), definitionHash: z.string() }),
});
export type ReplayOf = z.infer<typeof ReplayOf>;

const EdgeDecision = z.object({ id: z.string(), taken: z.boolean(), why: z.string() });
export type EdgeDecision = z.infer<typeof EdgeDecision>;

/** What made a step run its `revalidate` check when it resumed (docs/long-running.md). */
export const REVALIDATION_TRIGGERS = ['wait', 'restart', 'migration'] as const;
export type RevalidationTrigger = (typeof REVALIDATION_TRIGGERS)[number];

/** The data of each event type. */
export const EVENT_DATA = {
  run_created: z.object({
    parent: z.object({ runId: z.string(), stepId: z.string(), activation: z.number().int(), attempt: z.number().int(), index: z.number().int().optional() }).optional(),
    priority: z.number().optional(),
    key: z.string().optional(),
    workflowId: z.string(),
    version: z.number().int(),
    definitionHash: z.string(),
    workspaceDir: z.string(),
    input: z.unknown(),
    forkOf: z.object({ runId: z.string(), fromStep: z.string() }).optional(),
    /** Set on a debug run: its breakpoints and pinned outputs, fixed when it is created. */
    debug: RunDebugSettings.optional(),
    /** Set on a replay (weft replay): the run it replays and the definition it ran on instead. */
    replayOf: ReplayOf.optional(),
    /**
     * The workspace policy the run started under (docs/policies.md), snapshotted like its
     * definition: a later change of weft.policy.json does not change a run in flight.
     */
    policy: z.object({ hash: z.string(), rules: Policy }).optional(),
    /** The budget the start gave the run (`weft run --budget`, docs/budgets.md); the smallest of it, limits.budget and the policy's perRun applies. */
    budget: z.number().nonnegative().optional(),
  }),
  run_input_revised: z.object({ inputRevision: z.number().int(), input: z.unknown() }),
  run_state_changed: z.object({ state: z.enum(RUN_STATES) }),
  engine_resumed: z.object({ interrupted: z.number().int() }),
  step_activated: z.object({ input: z.unknown().optional(), compensates: z.string().optional() }),
  operator_action: z.object({
    action: z.enum(OPERATOR_ACTIONS),
    by: z.string(),
    output: z.unknown().optional(),
    as: z.enum(['succeeded', 'failed']).optional(),
  }),
  run_failing: z.object({ stepId: z.string() }),
  compensation_started: z.object({ order: z.array(z.string()) }),
  step_compensated: z.object({ compensatedBy: z.string() }),
  /**
   * The run waits before it starts: for a run slot (limits.maxParallelRuns, the default), or for
   * a daily budget (`for: "budget"`, docs/budgets.md) until `until`, the next UTC day's start.
   */
  run_queued: z.object({ priority: z.number(), for: z.enum(['slot', 'budget']).optional(), until: z.number().optional() }),
  child_started: z.object({ childRunId: z.string(), index: z.number().int().optional() }),
  child_finished: z.object({ childRunId: z.string(), index: z.number().int().optional(), state: z.string(), output: z.unknown().optional() }),
  run_dequeued: z.object({}),
  attempt_started: z.object({
    inputHash: z.string(),
    input: z.unknown(),
    variant: z.number().int().nullable(),
    idempotencyKey: z.string().optional(),
    effect: z.enum(EFFECTS),
    timeoutMs: z.number().int().optional(),
    /** A debug run's pinned step: the attempt settles with the pinned output, its executor is not called. */
    pinned: z.literal(true).optional(),
    /** An agent step with candidates: which one this attempt runs on, and why (docs/routing.md). */
    route: AttemptRoute.optional(),
  }),
  attempt_succeeded: z.object({ output: z.unknown(), evidenceId: z.string(), covers: Covers, meta: AttemptMeta.optional(), pinned: z.literal(true).optional() }),
  attempt_failed: z.object({
    error: ErrorInfo,
    retryable: z.boolean(),
    /** Work that ran but failed its contract (invalid_output, acceptance_not_met) is evidence too. */
    output: z.unknown().optional(),
    evidenceId: z.string().optional(),
    covers: Covers.optional(),
    meta: AttemptMeta.optional(),
    /** The pinned output of a debug run failed the step's contract. */
    pinned: z.literal(true).optional(),
  }),
  attempt_unknown: z.object({ error: ErrorInfo, meta: AttemptMeta.optional() }),
  /** The executor finished part of the work: `output` is the part done, `remaining` what is left (docs/long-running.md#partial-completion). */
  attempt_partial: z.object({ output: z.unknown(), remaining: z.unknown().optional(), meta: AttemptMeta.optional() }),
  retry_scheduled: z.object({ nextAttempt: z.number().int(), dueAt: z.number(), delayMs: z.number() }),
  timer_set: z.object({ dueAt: z.number() }),
  timer_fired: z.object({}),
  task_opened: z.object({
    task: z.enum(HUMAN_TASKS),
    title: z.string(),
    instructions: z.string().optional(),
    assignee: z.string().optional(),
    form: z.record(z.string(), z.unknown()).optional(),
    options: z.array(z.string()).optional(),
    deadlineAt: z.number().optional(),
  }),
  task_reassigned: z.object({ from: z.string().nullable(), to: z.string(), by: z.string() }),
  task_decided: z.object({
    decision: z.enum(['approved', 'rejected']),
    by: z.string(),
    data: z.unknown().optional(),
    choice: z.string().optional(),
    reason: z.string().optional(),
  }),
  event_awaited: z.object({ name: z.string(), key: z.string(), deadlineAt: z.number().optional() }),
  event_received: z.object({ name: z.string(), key: z.string(), id: z.string(), data: z.unknown(), receivedAt: z.number() }),
  event_duplicate: z.object({ name: z.string(), key: z.string(), id: z.string() }),
  deadline_passed: z.object({ onExpire: z.enum(ON_EXPIRE) }),
  evidence_reused: z.object({
    evidenceId: z.string(),
    output: z.unknown(),
    covers: Covers,
    from: z.object({ runId: z.string(), activation: z.number().int(), attempt: z.number().int() }),
  }),
  evidence_imported: z.object({
    evidenceId: z.string(),
    stepId: z.string(),
    output: z.unknown(),
    covers: Covers,
    from: z.object({ runId: z.string(), activation: z.number().int(), attempt: z.number().int() }),
    /** The source run's compensation step that offset this evidence's effect: it does not count as done here either. */
    offsetBy: z.string().optional(),
  }),
  unknown_imported: z.object({
    stepId: z.string(),
    inputHash: z.string(),
    from: z.object({ runId: z.string(), activation: z.number().int(), attempt: z.number().int() }),
  }),
  /** A revision changed the input of a step after its effect happened: it waits for a person's decision. */
  revision_held: z.object({ evidenceId: z.string(), inputHash: z.string(), input: z.unknown() }),
  outcome_carried: z.object({ outcome: SettleOutcome, fromActivation: z.number().int(), attempt: z.number().int() }),
  step_settled: z.object({
    outcome: SettleOutcome,
    evidenceId: z.string().optional(),
    edges: z.array(EdgeDecision),
  }),
  step_escalated: z.object({ outcome: SettleOutcome }),
  /**
   * A step's `revalidate` check ran as it resumed: what triggered it, the check, what it read and
   * its verdict (docs/long-running.md). `inputs` holds `now`, `waitedMs`, `trigger`, `read` (each
   * value the check read, by path) and, for a check that reads again first (`revalidate.fetch`),
   * `fetched`: `{ kind, ok, output | error: {code, message}, durationMs }`. Events written before
   * `fetched` existed read as they are.
   */
  step_revalidated: z.object({ trigger: z.enum(REVALIDATION_TRIGGERS), waitedMs: z.number().optional(), check: z.string(), inputs: z.unknown(), verdict: z.enum(['fresh', 'stale']), why: z.string() }),
  /**
   * A workspace policy's escalation rule (docs/policies.md) fired for the step's activation: it
   * failed `failures` attempts, or stayed unfinished `elapsedMs`, and `to` is told. The step goes
   * on as before (the run's state does not change); the event is the record of who was told why.
   */
  policy_escalated: z.object({
    rule: z.string(),
    to: z.string(),
    after: z.enum(['failures', 'time']),
    failures: z.number().int().optional(),
    elapsedMs: z.number().int().optional(),
  }),
  /**
   * An operator's retry, skip or resolve of the step (the event's `step`) re-decides what followed
   * its earlier outcome: the decisions of `edges` (the edges out of the step and out of every step
   * after it) are withdrawn, and `steps`, which those decisions had settled (an end step reached, a
   * step that ran or was skipped), wait to be decided again. Their attempts and evidence stay on
   * record; an end step among them no longer ends the run.
   */
  /**
   * A step that had settled is not on the path any more: a later pass, or a re-decision after an
   * operator's action, decided every edge into it as not taken. Its last activation stays as it
   * settled (a step that ran is never shown skipped); its outgoing edges are decided not taken so
   * the dead path goes on, and an end step among such steps no longer ends the run.
   */
  step_passed_over: z.object({ edges: z.array(EdgeDecision) }),
  path_reopened: z.object({
    /** Who re-decided, in words: `retry of "write" by ann`. */
    cause: z.string(),
    edges: z.array(z.string()),
    steps: z.array(z.object({ stepId: z.string(), activation: z.number().int(), state: z.string() })),
  }),
  /**
   * A debug run paused before the step's activation started its first attempt: at a breakpoint,
   * or (`stepping`) at the first start after `weft step`. The run_state_changed to paused follows.
   */
  breakpoint_hit: z.object({ stepping: z.boolean() }),
  /** `weft continue` or `weft step` on a run paused at a breakpoint; `step` pauses again before the next start. */
  debug_resumed: z.object({ mode: z.enum(['continue', 'step']), by: z.string() }),
  /**
   * `weft migrate`: from here on the run runs on another version of its workflow. `mapping` maps
   * each step of the old version that the new one keeps to its id there (renamed or not; a step
   * left out was dropped); `decisions` says, for each new step upstream of completed work, whether
   * it was skipped or runs now. The event carries the definition it switches to (the snapshot
   * `definitionHash` names) and the one it leaves, so any fold of the log (the engine's, the app's
   * time travel, which holds only the run's latest version) needs nothing but the log.
   */
  run_migrated: z.object({
    fromVersion: z.number().int(),
    toVersion: z.number().int(),
    definitionHash: z.string(),
    mapping: z.record(z.string(), z.string()),
    decisions: z.record(z.string(), z.enum(['skip', 'run'])),
    by: z.string(),
    definition: Workflow,
    /** The definition the run leaves (version `fromVersion`). */
    fromDefinition: Workflow,
  }),
  /** An operator's note on the run, or on the event's `step` (`weft note`, docs/long-running.md); allowed in any run state, it changes nothing else. */
  note_added: z.object({ text: z.string(), by: z.string() }),
  /** An operator opened a stored artifact of the run (docs/long-running.md): whose value, at which value path, by whom; the value itself is never in the log. */
  artifact_opened: z.object({ sha256: z.string(), path: z.string(), by: z.string() }),
} as const;

export type EventType = keyof typeof EVENT_DATA;
export const EVENT_TYPES = Object.keys(EVENT_DATA) as EventType[];

export type EventData<T extends EventType> = z.infer<(typeof EVENT_DATA)[T]>;

/** One stored event of type T: where it happened (run, seq, time, step, attempt), its data and reason. */
export interface RunEventOf<T extends EventType> {
  runId: string;
  seq: number;
  /** Milliseconds since the epoch, from the engine's clock. */
  at: number;
  type: T;
  step: string | null;
  activation: number | null;
  attempt: number | null;
  data: EventData<T>;
  reason: string | null;
}

/**
 * One stored event, as the fold sees it: a union discriminated by `type`, so `switch (e.type)`
 * types `e.data` without casts. `RunEvent<'step_settled'>` is one member; a generic `T` keeps
 * type and data together where events are made (the store's append, the engine's emit). It equals
 * z.infer of shared/api/run-event-record.ts's RunEventRecord (checked there).
 *
 * @example
 * if (e.type === 'step_settled') e.data.edges; // EdgeDecision[]
 */
export type RunEvent<T extends EventType = EventType> = { [K in T]: RunEventOf<K> }[T];

/**
 * Makes an event from its parts, keeping its type and data together. The fields are named one
 * by one, not spread: the store makes one event per row it reads (9,000 for a resume of 1,000
 * runs), and a spread cost several times as much there. Their order is the one the event's JSON
 * has always had (runId … reason, then type and data).
 */
export function runEvent<T extends EventType>(type: T, data: EventData<T>, at: Omit<RunEventOf<T>, 'type' | 'data'>): RunEvent<T> {
  return { runId: at.runId, seq: at.seq, at: at.at, step: at.step, activation: at.activation, attempt: at.attempt, reason: at.reason, type, data };
}

const same = <E extends RunEvent>(e: E): RunEvent => e;
/** One identity per type: indexed by a generic type, it is checked where a cast would not be. */
const WIDEN: { [K in EventType]: (e: RunEvent<K>) => RunEvent } = {
  run_created: same,
  run_input_revised: same,
  run_state_changed: same,
  engine_resumed: same,
  step_activated: same,
  operator_action: same,
  run_failing: same,
  compensation_started: same,
  step_compensated: same,
  run_queued: same,
  child_started: same,
  child_finished: same,
  run_dequeued: same,
  attempt_started: same,
  attempt_succeeded: same,
  attempt_failed: same,
  attempt_unknown: same,
  attempt_partial: same,
  retry_scheduled: same,
  timer_set: same,
  timer_fired: same,
  task_opened: same,
  task_reassigned: same,
  task_decided: same,
  event_awaited: same,
  event_received: same,
  event_duplicate: same,
  deadline_passed: same,
  evidence_reused: same,
  evidence_imported: same,
  unknown_imported: same,
  revision_held: same,
  outcome_carried: same,
  step_settled: same,
  step_escalated: same,
  step_revalidated: same,
  policy_escalated: same,
  path_reopened: same,
  step_passed_over: same,
  breakpoint_hit: same,
  debug_resumed: same,
  run_migrated: same,
  note_added: same,
  artifact_opened: same,
};

/**
 * An event of a generic type as a member of the union. TypeScript cannot relate `RunEvent<T>` for
 * a type parameter T to the union, so code that makes events generically (the store's append, the
 * engine's emit) passes them through here; the table above proves each member is one.
 */
export function widenEvent<T extends EventType>(e: RunEvent<T>): RunEvent {
  return WIDEN[e.type](e);
}

/** Parses the data of a stored row; throws a readable error naming run, seq and type. */
export function parseEventData<T extends EventType>(type: T, data: unknown, where: string): EventData<T> {
  const schema: z.ZodType | undefined = Object.hasOwn(EVENT_DATA, type) ? EVENT_DATA[type] : undefined;
  if (schema === undefined) throw new Error(`${where}: unknown event type "${type}" (written by a newer Weft?)`);
  const r = schema.safeParse(data);
  if (!r.success) throw new Error(`${where}: ${type} event data does not match its schema: ${r.error.issues[0]?.message ?? ''}`);
  return r.data as EventData<T>;
}
