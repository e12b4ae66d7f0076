// The in-memory state of one run, built from its event log by `applyEvent` (apply-event.ts).
// The scheduler never changes this state directly: it appends an event and applies it, so the
// state after a crash (rebuilt by folding the stored log) equals the state before it. Pure and
// Node-free: the app folds any prefix of a log with the same code to show a run as it was.
import type { StepState, RunState } from '../definition/names.ts';
import type { Workflow } from '../definition/workflow-schema.ts';
import type { Covers, ReplayOf, RevalidationTrigger, SettleOutcome } from '../events/run-event.ts';
import type { AttemptErrorCode } from '../events/attempt-error-codes.ts';

/** What an executor reported about an attempt besides its result (provider, model, usage, latency, HTTP status). */
import type { AttemptMeta } from '../events/attempt-meta.ts';
import type { PolicySnapshot } from '../policy/policy-schema.ts';
import type { AttemptRoute } from '../events/attempt-route.ts';

export interface AttemptRecord {
  activation: number;
  number: number;
  /** `cancelled`: the step was settled (cancelled, or withdrawn as skipped) while it still waited, e.g. for a person. */
  /** `partial`: the executor finished part of the work (attempt_partial); `output` is that part. */
  state: 'running' | 'succeeded' | 'failed' | 'unknown' | 'partial' | 'cancelled';
  startedAt: number;
  endedAt: number | null;
  inputHash: string;
  input: unknown;
  variant: number | null;
  effect: 'none' | 'idempotent' | 'external';
  idempotencyKey: string | undefined;
  timeoutMs: number | undefined;
  error: { code: AttemptErrorCode; message: string } | null;
  evidenceId: string | null;
  /** How long the provider asked to wait before another attempt (meta.retryAfterMs). */
  retryAfterMs: number | undefined;
  /** The output it gave: accepted, the part done of a partial attempt, or work that failed its contract (undefined when none). */
  output: unknown;
  /** A partial attempt's reference to what remains, as the executor gave it. */
  remaining?: unknown;
  meta: AttemptMeta | undefined;
  /** When the attempt became due: its activation, or the end of the retry wait before it. */
  queuedAt: number | null;
  /** A debug run's pinned step: the attempt took the pinned output, its executor was not called. */
  pinned?: true;
  /** An agent step with candidates: the executor chosen for this attempt and why (docs/routing.md). */
  route?: AttemptRoute;
}

export interface Evidence {
  id: string;
  stepId: string;
  activation: number;
  attempt: number;
  output: unknown;
  covers: Covers;
  /** false for work that ran but failed its contract (invalid_output, acceptance_not_met). */
  satisfies: boolean;
  fromRun: string;
  /** Pinned evidence of a debug run: never reused or imported by another run or revision. */
  pinned?: true;
  /**
   * The compensation step that offset this evidence's effect (step_compensated). Offset evidence
   * no longer counts as done: a revision or a fork runs the step again, or holds it for a decision.
   */
  offsetBy?: string;
}

/** A debug run's breakpoints, pins and where it is paused (DESIGN: debug runs; docs/engine.md). */
export interface RunDebug {
  breakpoints: string[];
  /** The pinned output of each pinned step, by step id. */
  pins: Record<string, unknown>;
  /** The breakpoint the run is paused at, until it leaves the paused state. */
  pausedAt: { stepId: string; activation: number } | null;
  /** Breakpoints passed ("STEP/ACTIVATION"): a continued activation does not stop there again. */
  passed: Set<string>;
  /** After `weft step`: the next start of any step pauses. */
  stepping: boolean;
}

/** The key of an activation in RunDebug.passed. */
export const activationKey = (stepId: string, activation: number): string => `${stepId}/${activation}`;

export interface StepRuntime {
  id: string;
  activation: number;
  state: StepState;
  attempts: AttemptRecord[];
  /** Seq of the event that opened (or skipped) the current activation. */
  openedSeq: number;
  /**
   * `openedSeq` as it was before the current activation opened: the decisions newer than this
   * made that activation. A join that failed judges its pass again from here when a branch arrives late.
   */
  passFrom: number;
  retryDueAt: number | null;
  /** When the step's next attempt became due (activation, or the due time of a retry): its queuedAt. */
  dueSince: number | null;
  timerDueAt: number | null;
  /** Satisfying evidence of the current activation, if it succeeded. */
  evidence: Evidence | null;
  outcome: SettleOutcome | null;
  /** Why the step last settled (the step_settled reason), e.g. why an activation was withdrawn. */
  settledReason: string | null;
  output: unknown;
  escalated: boolean;
  /** Input given by an operator's retry for the current activation. */
  inputOverride: { value: unknown } | null;
  /** The step this one compensates, while it runs as a compensation. */
  compensates: string | null;
  /** Seq of the step's last step_settled event (compensation runs in reverse order of these). */
  settledSeq: number;
  /** Child runs of a subworkflow or map step's current attempt, by item index (0 for subworkflow). */
  children: Map<number, { runId: string; state: string | null; output: unknown }>;
  /** The open task of a waiting human step (current activation). */
  task: OpenTask | null;
  /** What a waiting event step waits for (current activation). */
  awaiting: { name: string; key: string } | null;
  /** Held by a revision for a person's decision: the earlier evidence and why (revision_held). */
  held: { evidenceId: string; inputHash: string; reason: string } | null;
  /**
   * The latest input revision in which the step started an attempt or an operator acted on it.
   * A step that has done either in the current revision is not held again (a loop pass, a retry).
   */
  actedRevision: number;
  /**
   * The latest settlement of the step other than a skip: the activation and its outcome. A step
   * skipped later (a loop's later pass took another way, or an operator's action re-decided what
   * led to it) still shows the work it did.
   */
  lastSettled: { activation: number; outcome: SettleOutcome } | null;
  /**
   * Set when an operator's action upstream re-decided what had settled this step (path_reopened):
   * the activation and outcome that no longer stand, and whose action (`retry of "write" by ann`).
   * Cleared when the step is activated again.
   */
  superseded: { seq: number; activation: number; outcome: SettleOutcome; cause: string } | null;
  /**
   * Set by path_reopened until the step starts an attempt, settles or is acted on: its next
   * activation comes from a re-decision, so an external effect that already happened with the
   * same input is not repeated (evidence of activations up to `activation` is reused).
   */
  reopened: { seq: number; activation: number } | null;
  /**
   * Set when the step, settled, was passed over (step_passed_over): no edge into it is taken any
   * more, in a later pass or after a re-decision. Its last activation stays as it settled.
   * Cleared when it is activated again.
   */
  passedOver: { seq: number; reason: string } | null;
  /** The latest `revalidate` check the step ran as it resumed (step_revalidated), kept as evidence. */
  revalidation: Revalidation | null;
}

/** A `revalidate` check a step ran as it resumed (step_revalidated; docs/long-running.md). */
export interface Revalidation {
  seq: number;
  at: number;
  activation: number;
  attempt: number | null;
  trigger: RevalidationTrigger;
  waitedMs: number | undefined;
  check: string;
  inputs: unknown;
  verdict: 'fresh' | 'stale';
  why: string;
}

export interface OpenTask {
  task: 'approve' | 'review' | 'correct' | 'classify' | 'provide';
  title: string;
  instructions: string | undefined;
  assignee: string | undefined;
  form: Record<string, unknown> | undefined;
  options: string[] | undefined;
  deadlineAt: number | undefined;
  openedAt: number;
}

/** A run started by a subworkflow or map step of this run, as this run's log tells of it. */
export interface ChildRun {
  runId: string;
  stepId: string;
  activation: number;
  attempt: number;
  /** The map item (0 for a subworkflow). */
  index: number;
  /** How it ended (child_finished), null while it goes on. */
  state: string | null;
}

export interface EdgeDecisionState {
  taken: boolean;
  seq: number;
  why: string;
}

export interface RunModel {
  runId: string;
  workflow: Workflow;
  definitionHash: string;
  workspaceDir: string;
  input: unknown;
  inputRevision: number;
  state: RunState;
  createdAt: number;
  updatedAt: number;
  steps: Map<string, StepRuntime>;
  edges: Map<string, EdgeDecisionState>;
  traversals: Map<string, number>;
  evidence: Map<string, Evidence>;
  /** The same evidence by step (kept by putEvidence with `evidence`), for reuse lookups. */
  evidenceByStep: Map<string, Evidence[]>;
  /** `{ <stepId>: { output } }` for expressions, kept current as steps settle. */
  view: Record<string, { output: unknown }>;
  endsReached: { stepId: string; status: 'succeeded' | 'failed' }[];
  /**
   * Attempts of external steps whose outcome is unknown, from earlier revisions or imported by a
   * fork: a new activation with the same input inherits the unknown instead of repeating the effect.
   */
  unknowns: { stepId: string; inputHash: string; inputRevision: number; fromRun: string; activation: number; attempt: number }[];
  /** Set when a failure nothing handles has doomed the run: nothing new starts but compensations. */
  failing: { stepId: string; reason: string } | null;
  /** Compensation in progress: the steps still to offset, in order, and those offset already. */
  compensation: { pending: string[]; done: string[] } | null;
  /** Waiting for a slot under limits.maxParallelRuns, or for a daily budget (budgetWait). */
  queued: boolean;
  /** Set while the run waits for a daily budget (run_queued for budget): when it tries again, and why it waits. */
  budgetWait: { until: number; reason: string } | null;
  /** The budget its start gave the run (run_created's `budget`; docs/budgets.md). */
  startBudget: number | undefined;
  priority: number;
  /** The subworkflow or map step this run is a child of. */
  parent: { runId: string; stepId: string; activation: number; attempt: number; index?: number | undefined } | undefined;
  key: string | undefined;
  lastSeq: number;
  forkOf: { runId: string; fromStep: string } | undefined;
  /** Set on a replay (weft replay): the run it replays and the definition it ran on. A replay takes no actions. */
  replayOf: ReplayOf | undefined;
  /** Every child run this run started, in order (a step's `children` has its current attempt's only). */
  childRuns: ChildRun[];
  /** Set on a debug run (run_created's `debug`). */
  debug: RunDebug | null;
  /** Each `weft migrate` of the run (run_migrated), oldest first: where its version changed. */
  migrations: RunMigration[];
  /** The workspace policy the run started under (run_created's `policy`); none when the workspace had none. */
  policy: PolicySnapshot | undefined;
  /** Each escalation by a policy rule (policy_escalated), oldest first: who was told about which step, and why. */
  escalations: PolicyEscalation[];
  /** Each operator's note on the run or one of its steps (note_added), oldest first. */
  notes: RunNote[];
}

/** An operator's note (note_added): on the run (`stepId` null) or on a step. */
export interface RunNote {
  seq: number;
  at: number;
  stepId: string | null;
  text: string;
  by: string;
}

/** One escalation of a step by a policy rule (policy_escalated). */
export interface PolicyEscalation {
  stepId: string;
  activation: number;
  rule: string;
  to: string;
  at: number;
  /** The engine's reason: how many attempts failed, or how long the step stayed unfinished. */
  reason: string;
}

/** One migration of a run to another version of its workflow (run_migrated). */
export interface RunMigration {
  seq: number;
  at: number;
  fromVersion: number;
  toVersion: number;
  by: string;
  reason: string | null;
  /** New steps upstream of completed work that run now (`--decide STEP=run`): their edges into work done before the migration do not run that work again. */
  ran: string[];
}

/** The runtime of a step that has not been activated yet. */
export function newStepRuntime(id: string): StepRuntime {
  return {
    id,
    activation: 0,
    state: 'blocked',
    attempts: [],
    openedSeq: 0,
    passFrom: 0,
    retryDueAt: null,
    dueSince: null,
    timerDueAt: null,
    evidence: null,
    outcome: null,
    settledReason: null,
    output: undefined,
    escalated: false,
    task: null,
    awaiting: null,
    held: null,
    actedRevision: 0,
    lastSettled: null,
    superseded: null,
    reopened: null,
    passedOver: null,
    revalidation: null,
    inputOverride: null,
    compensates: null,
    settledSeq: 0,
    children: new Map(),
  };
}

export function newRunModel(runId: string, workflow: Workflow): RunModel {
  const steps = new Map<string, StepRuntime>();
  for (const s of workflow.steps) steps.set(s.id, newStepRuntime(s.id));
  return {
    runId,
    workflow,
    definitionHash: '',
    workspaceDir: '.',
    input: null,
    inputRevision: 1,
    state: 'running',
    createdAt: 0,
    updatedAt: 0,
    steps,
    edges: new Map(),
    traversals: new Map(),
    evidence: new Map(),
    evidenceByStep: new Map(),
    view: {},
    endsReached: [],
    unknowns: [],
    failing: null,
    compensation: null,
    queued: false,
    budgetWait: null,
    startBudget: undefined,
    priority: 0,
    parent: undefined,
    key: undefined,
    lastSeq: 0,
    forkOf: undefined,
    replayOf: undefined,
    childRuns: [],
    debug: null,
    migrations: [],
    policy: undefined,
    escalations: [],
    notes: [],
  };
}

/** The latest attempt of the step's current activation. */
export function currentAttempt(s: StepRuntime): AttemptRecord | undefined {
  for (let i = s.attempts.length - 1; i >= 0; i--) {
    const a = s.attempts[i];
    if (a !== undefined && a.activation === s.activation) return a;
  }
  return undefined;
}

/** An attempt's id, also the id of the evidence it left: "STEP/ACTIVATION.ATTEMPT". */
export const attemptId = (stepId: string, a: { activation: number; number: number }): string => `${stepId}/${a.activation}.${a.number}`;

/** The id of the evidence an operator gave (weft skip, weft resolve --as succeeded) for an activation. */
export const operatorEvidenceId = (stepId: string, activation: number): string => `${stepId}/${activation}.operator`;
