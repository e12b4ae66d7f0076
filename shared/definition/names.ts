// Names shared by the definition format, the engine and the UI: step kinds, edge outcomes,
// step and run states. One list each, so a new name is added in exactly one place.

export const STEP_KINDS = [
  'agent',
  'script',
  'command',
  'http',
  'human',
  'wait',
  'event',
  'router',
  'join',
  'map',
  'subworkflow',
  'transform',
  'end',
] as const;
export type StepKind = (typeof STEP_KINDS)[number];

/**
 * Outcomes an edge can follow. `any` matches every settled outcome. `exhausted` is no outcome of
 * its own: the edge is taken instead of a loop edge of the same step whose maxTraversals are used up.
 * `budget_exceeded`: the step did not start, because its run's budget would be exceeded (docs/budgets.md).
 * `stale`: the step's `revalidate` check, run when it resumed, found its assumptions out of date (docs/long-running.md).
 * `partial`: the executor finished part of the work and said what remains (docs/long-running.md#partial-completion).
 */
export const EDGE_OUTCOMES = [
  'succeeded',
  'failed',
  'unknown',
  'timed_out',
  'rejected',
  'expired',
  'budget_exceeded',
  'stale',
  'partial',
  'any',
  'exhausted',
] as const;
export type EdgeOutcome = (typeof EDGE_OUTCOMES)[number];

export const EFFECTS = ['none', 'idempotent', 'external'] as const;
export type Effect = (typeof EFFECTS)[number];

export const STEP_STATES = [
  'blocked',
  'ready',
  'running',
  'retry_wait',
  'waiting',
  'succeeded',
  'failed',
  'unknown',
  'rejected',
  'skipped',
  'cancelled',
  'compensating',
  'compensated',
] as const;
export type StepState = (typeof STEP_STATES)[number];

export const RUN_STATES = [
  'running',
  'waiting',
  'paused',
  'needs_attention',
  'succeeded',
  'failed',
  'cancelled',
] as const;
export type RunState = (typeof RUN_STATES)[number];

/** The states a run ends in: nothing runs in it again unless an operator acts. The one list of them. */
export const FINISHED_RUN_STATES = ['succeeded', 'failed', 'cancelled'] as const satisfies readonly RunState[];
export type FinishedRunState = (typeof FINISHED_RUN_STATES)[number];

/** True for a run state in FINISHED_RUN_STATES (a string read from outside may be any state). */
export function isFinishedRunState(state: string): state is FinishedRunState {
  return (FINISHED_RUN_STATES as readonly string[]).includes(state);
}

/** Step ids must be JSONata names so that `steps.<id>.output` reads them without quoting. */
export const STEP_ID_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Workflow ids are slugs: they name files and appear in URLs. */
export const WORKFLOW_ID_PATTERN = /^[a-z0-9][a-z0-9-]*$/;

/** What a person can be asked to do at a human step. */
export const HUMAN_TASKS = ['approve', 'review', 'correct', 'classify', 'provide'] as const;

/**
 * What a revision (or a fork with another input) does to a step whose input changed after it
 * produced evidence: `ask` holds it for a person's decision, `rerun` runs it again, `keep` keeps
 * the earlier evidence. The default is `ask` for external steps and `rerun` for the others.
 */
export const ON_REVISE = ['ask', 'rerun', 'keep'] as const;
export type OnRevise = (typeof ON_REVISE)[number];

/** What a human or event step's deadline does when it passes. */
export const ON_EXPIRE = ['reject', 'escalate', 'expire'] as const;

/** What an operator can do to a run (weft pause, resume, cancel, retry, skip, resolve, keep). */
export const OPERATOR_ACTIONS = ['pause', 'resume', 'cancel', 'retry', 'skip', 'resolve', 'keep'] as const;
export type OperatorAction = (typeof OPERATOR_ACTIONS)[number];
