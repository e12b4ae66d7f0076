// A run's restart record, the first fields of what `weft inspect RUN --json` prints
// (shared/run/restart-record.ts builds it, typed by these schemas). RunDetail
// (run-detail.ts) adds to it; nothing here may change, only be added to.
import { z } from 'zod';
import { RUN_STATES, STEP_STATES } from '../definition/names.ts';
import { Covers, ErrorInfo } from './event-parts.ts';
import { REVALIDATION_TRIGGERS, SettleOutcome } from '../events/run-event.ts';
import { JsonValue } from './json-value.ts';

/** One attempt, times as ISO 8601 text. */
export const AttemptView = z.strictObject({
  /** "STEP/ACTIVATION.ATTEMPT", also the id of the evidence it left. */
  id: z.string(),
  activation: z.number().int().positive(),
  number: z.number().int().positive(),
  /** `partial`: the executor finished part of the work (docs/long-running.md#partial-completion). */
  state: z.enum(['running', 'succeeded', 'failed', 'unknown', 'partial', 'cancelled']),
  startedAt: z.iso.datetime(),
  endedAt: z.iso.datetime().nullable(),
  inputHash: z.string(),
  /** Which retry variant configured the attempt; null for the step's own config. */
  variant: z.number().int().nullable(),
  error: ErrorInfo.nullable(),
  /** A debug run's pinned step: the attempt took the pinned output; nothing was called. */
  pinned: z.literal(true).optional(),
  /** A partial attempt: what remains, as its executor said (the part done is its output). */
  remaining: JsonValue.optional(),
});
export type AttemptView = z.infer<typeof AttemptView>;

/**
 * The latest `revalidate` check a step ran as it resumed (step_revalidated, docs/long-running.md):
 * what triggered it, how long the step had waited, the check, the values it read and its verdict.
 */
export const RevalidationView = z.strictObject({
  at: z.iso.datetime(),
  activation: z.number().int().positive(),
  trigger: z.enum(REVALIDATION_TRIGGERS),
  waitedMs: z.number().optional(),
  check: z.string(),
  inputs: z.unknown(),
  verdict: z.enum(['fresh', 'stale']),
  why: z.string(),
});
export type RevalidationView = z.infer<typeof RevalidationView>;

/** One step: its state, attempts, satisfying evidence and the next permitted action in words. */
export const StepView = z.strictObject({
  id: z.string(),
  state: z.enum(STEP_STATES),
  activation: z.number().int().nonnegative(),
  attempts: z.array(AttemptView),
  evidence: z
    .strictObject({
      id: z.string(),
      attempt: z.string(),
      covers: Covers,
      pinned: z.literal(true).optional(),
      /** The compensation step that undid this evidence's effect: it no longer counts as done. */
      offsetBy: z.string().optional(),
    })
    .nullable(),
  next: z.string(),
  /**
   * The step, settled, is not on the path any more: a later pass or an operator's re-decision took
   * another way. `state` is still how its last activation settled; this says why it no longer counts.
   */
  passedOver: z.strictObject({ reason: z.string() }).optional(),
  /** An operator's action upstream re-decided what led to the step: the activation that no longer stands, and whose action. */
  superseded: z.strictObject({ activation: z.number().int().positive(), outcome: SettleOutcome, cause: z.string() }).optional(),
  /** The latest revalidate check the step ran as it resumed: the evidence of fresh or stale. */
  revalidation: RevalidationView.optional(),
});
export type StepView = z.infer<typeof StepView>;

/**
 * A debug run's settings and where it is paused: the steps with breakpoints, the pinned steps
 * (their outputs are in the run's log), the breakpoint it is paused at, and whether `weft step`
 * asked it to pause before the next start.
 */
export const RunDebugView = z.strictObject({
  breakpoints: z.array(z.string()),
  pins: z.array(z.string()),
  pausedAt: z.strictObject({ step: z.string(), activation: z.number().int().positive() }).nullable(),
  stepping: z.boolean(),
});
export type RunDebugView = z.infer<typeof RunDebugView>;

/** One `weft migrate` of the run: at which event and when its version changed, from what to what, by whom. */
export const RunMigrationView = z.strictObject({
  seq: z.number().int().positive(),
  at: z.iso.datetime(),
  fromVersion: z.number().int().positive(),
  toVersion: z.number().int().positive(),
  by: z.string(),
  reason: z.string().nullable(),
});
export type RunMigrationView = z.infer<typeof RunMigrationView>;

/** A step a workspace policy's escalation rule escalated: to whom, by which rule, when and why (docs/policies.md). */
export const PolicyEscalationView = z.strictObject({
  stepId: z.string(),
  activation: z.number().int().nonnegative(),
  rule: z.string(),
  to: z.string(),
  at: z.iso.datetime(),
  reason: z.string(),
});
export type PolicyEscalationView = z.infer<typeof PolicyEscalationView>;

/** An operator's note (`weft note`): on the run (`stepId` null) or a step, with who wrote it and when. */
export const RunNoteView = z.strictObject({
  seq: z.number().int().positive(),
  at: z.iso.datetime(),
  stepId: z.string().nullable(),
  text: z.string(),
  by: z.string(),
});
export type RunNoteView = z.infer<typeof RunNoteView>;

/** The run's identity and state; `debug` only on a debug run; `migrations` only on a migrated run (its version is the latest one's); `escalations` only when a policy escalated a step; `notes` only when someone wrote one. */
export const RunHeader = z.strictObject({
  id: z.string(),
  workflowId: z.string(),
  version: z.number().int().positive(),
  state: z.enum(RUN_STATES),
  inputRevision: z.number().int().positive(),
  debug: RunDebugView.optional(),
  migrations: z.array(RunMigrationView).optional(),
  escalations: z.array(PolicyEscalationView).optional(),
  notes: z.array(RunNoteView).optional(),
});

/**
 * What `weft inspect RUN --json` prints.
 *
 * @example
 * const record = RestartRecord.parse(JSON.parse(stdout));
 */
export const RestartRecord = z.strictObject({ run: RunHeader, steps: z.array(StepView) });
export type RestartRecord = z.infer<typeof RestartRecord>;
