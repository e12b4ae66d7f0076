// The in-memory state of one run, and `applyEvent`, the fold that builds it from the event log.
// The scheduler never changes this state directly: it appends an event and applies it, so the
// state after a crash (rebuilt by folding the stored log) equals the state before it.
import type { StepState, RunState } from '../../shared/definition/names.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { Covers, RunEvent, SettleOutcome } from '../../shared/events/run-event.ts';
import { indexDefinition } from './definition-index.ts';

export interface AttemptRecord {
  activation: number;
  number: number;
  state: 'running' | 'succeeded' | 'failed' | 'unknown';
  startedAt: number;
  endedAt: number | null;
  inputHash: string;
  input: unknown;
  variant: number | null;
  effect: 'none' | 'idempotent' | 'external';
  idempotencyKey: string | undefined;
  timeoutMs: number | undefined;
  error: { code: string; message: string } | null;
  evidenceId: string | null;
  /** How long the provider asked to wait before another attempt (meta.retryAfterMs). */
  retryAfterMs: number | undefined;
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
}

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
  timerDueAt: number | null;
  /** Satisfying evidence of the current activation, if it succeeded. */
  evidence: Evidence | null;
  outcome: SettleOutcome | null;
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
  /** Waiting for a slot under limits.maxParallelRuns. */
  queued: boolean;
  priority: number;
  /** The subworkflow or map step this run is a child of. */
  parent: { runId: string; stepId: string; activation: number; attempt: number; index?: number | undefined } | undefined;
  key: string | undefined;
  lastSeq: number;
  forkOf: { runId: string; fromStep: string } | undefined;
}

export function newRunModel(runId: string, workflow: Workflow): RunModel {
  const steps = new Map<string, StepRuntime>();
  for (const s of workflow.steps) {
    steps.set(s.id, {
      id: s.id,
      activation: 0,
      state: 'blocked',
      attempts: [],
      openedSeq: 0,
      passFrom: 0,
      retryDueAt: null,
      timerDueAt: null,
      evidence: null,
      outcome: null,
      output: undefined,
      escalated: false,
      task: null,
      awaiting: null,
      held: null,
      actedRevision: 0,
      inputOverride: null,
      compensates: null,
      settledSeq: 0,
      children: new Map(),
    });
  }
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
    priority: 0,
    parent: undefined,
    key: undefined,
    lastSeq: 0,
    forkOf: undefined,
  };
}

const stepOf = (run: RunModel, e: RunEvent): StepRuntime => {
  const s = e.step === null ? undefined : run.steps.get(e.step);
  if (s === undefined) throw new Error(`run ${run.runId} event ${e.seq} (${e.type}) names step "${e.step}", which the definition does not have`);
  return s;
};

const attemptOf = (s: StepRuntime, e: RunEvent): AttemptRecord => {
  const a = s.attempts.find((x) => x.activation === e.activation && x.number === e.attempt);
  if (a === undefined) throw new Error(`event ${e.seq} (${e.type}) names attempt ${e.activation}.${e.attempt} of "${s.id}", which never started`);
  return a;
};

/** Applies one event to the run model. Pure with respect to everything but `run`. */
export function applyEvent(run: RunModel, e: RunEvent): void {
  if (e.seq !== run.lastSeq + 1) throw new Error(`run ${run.runId}: event ${e.seq} follows ${run.lastSeq}; the log has a gap`);
  run.lastSeq = e.seq;
  run.updatedAt = e.at;
  switch (e.type) {
    case 'run_created': {
      const d = e.data as RunEvent<'run_created'>['data'];
      run.definitionHash = d.definitionHash;
      run.workspaceDir = d.workspaceDir;
      run.input = d.input;
      run.createdAt = e.at;
      run.forkOf = d.forkOf;
      run.priority = d.priority ?? 0;
      run.key = d.key;
      run.parent = d.parent;
      return;
    }
    case 'child_started': {
      const s = stepOf(run, e);
      const d = e.data as RunEvent<'child_started'>['data'];
      s.state = 'waiting';
      s.children.set(d.index ?? 0, { runId: d.childRunId, state: null, output: undefined });
      return;
    }
    case 'child_finished': {
      const s = stepOf(run, e);
      const d = e.data as RunEvent<'child_finished'>['data'];
      s.children.set(d.index ?? 0, { runId: d.childRunId, state: d.state, output: d.output });
      return;
    }
    case 'run_queued':
      run.queued = true;
      return;
    case 'run_dequeued':
      run.queued = false;
      return;
    case 'operator_action': {
      const d = e.data as RunEvent<'operator_action'>['data'];
      if (e.step === null) return;
      const s = stepOf(run, e);
      s.actedRevision = run.inputRevision;
      if (d.action === 'skip' || (d.action === 'resolve' && d.as === 'succeeded')) {
        // The operator's word is the evidence: it satisfies dependents like an accepted output.
        const id = operatorEvidenceId(s.id, s.activation);
        const ev: Evidence = { id, stepId: s.id, activation: s.activation, attempt: 0, output: d.output ?? null, covers: { inputHash: 'operator', definitionVersion: run.workflow.version, inputRevision: run.inputRevision }, satisfies: true, fromRun: run.runId };
        putEvidence(run, ev);
        s.evidence = ev;
        s.output = d.output ?? null;
      }
      return;
    }
    case 'run_failing':
      run.failing = { stepId: (e.data as RunEvent<'run_failing'>['data']).stepId, reason: e.reason ?? '' };
      return;
    case 'compensation_started':
      run.compensation = { pending: [...(e.data as RunEvent<'compensation_started'>['data']).order], done: [] };
      return;
    case 'step_compensated': {
      const s = stepOf(run, e);
      s.state = 'compensated';
      if (run.compensation) {
        run.compensation.pending = run.compensation.pending.filter((x) => x !== s.id);
        run.compensation.done.push(s.id);
      }
      return;
    }
    case 'run_input_revised': {
      const d = e.data as RunEvent<'run_input_revised'>['data'];
      run.input = d.input;
      run.inputRevision = d.inputRevision;
      run.failing = null;
      run.compensation = null;
      // A new revision is a new pass over the graph; history (attempts, evidence) stays.
      run.edges.clear();
      run.traversals.clear();
      run.endsReached = [];
      run.view = {};
      for (const s of run.steps.values()) {
        if (s.state !== 'running') s.state = 'blocked';
        s.openedSeq = e.seq;
        s.evidence = null;
        s.outcome = null;
        s.output = undefined;
        s.escalated = false;
        s.retryDueAt = null;
        s.timerDueAt = null;
        s.held = null;
      }
      return;
    }
    case 'run_state_changed':
      run.state = (e.data as RunEvent<'run_state_changed'>['data']).state;
      return;
    case 'engine_resumed':
      return;
    case 'evidence_imported': {
      const d = e.data as RunEvent<'evidence_imported'>['data'];
      putEvidence(run, { id: d.evidenceId, stepId: d.stepId, activation: d.from.activation, attempt: d.from.attempt, output: d.output, covers: d.covers, satisfies: true, fromRun: d.from.runId });
      return;
    }
    case 'step_activated': {
      const s = stepOf(run, e);
      s.activation = e.activation ?? s.activation + 1;
      s.state = 'ready';
      s.passFrom = s.openedSeq;
      s.openedSeq = e.seq;
      s.evidence = null;
      s.outcome = null;
      s.escalated = false;
      s.retryDueAt = null;
      s.timerDueAt = null;
      s.task = null;
      s.awaiting = null;
      s.held = null;
      const { input, compensates } = e.data as RunEvent<'step_activated'>['data'];
      s.inputOverride = input === undefined ? null : { value: input };
      s.compensates = compensates ?? null;
      if (compensates !== undefined) {
        const target = run.steps.get(compensates);
        if (target) target.state = 'compensating';
      }
      return;
    }
    case 'attempt_started': {
      const s = stepOf(run, e);
      const d = e.data as RunEvent<'attempt_started'>['data'];
      s.state = 'running';
      s.children = new Map();
      s.retryDueAt = null;
      s.actedRevision = run.inputRevision;
      s.attempts.push({
        activation: e.activation ?? s.activation,
        number: e.attempt ?? 1,
        state: 'running',
        startedAt: e.at,
        endedAt: null,
        inputHash: d.inputHash,
        input: d.input,
        variant: d.variant,
        effect: d.effect,
        idempotencyKey: d.idempotencyKey,
        timeoutMs: d.timeoutMs,
        error: null,
        evidenceId: null,
        retryAfterMs: undefined,
      });
      return;
    }
    case 'attempt_succeeded': {
      const s = stepOf(run, e);
      const a = attemptOf(s, e);
      const d = e.data as RunEvent<'attempt_succeeded'>['data'];
      a.state = 'succeeded';
      a.endedAt = e.at;
      a.evidenceId = d.evidenceId;
      const ev: Evidence = { id: d.evidenceId, stepId: s.id, activation: a.activation, attempt: a.number, output: d.output, covers: d.covers, satisfies: true, fromRun: run.runId };
      putEvidence(run, ev);
      s.evidence = ev;
      s.output = d.output;
      return;
    }
    case 'attempt_failed': {
      const s = stepOf(run, e);
      const a = attemptOf(s, e);
      const d = e.data as RunEvent<'attempt_failed'>['data'];
      a.state = 'failed';
      a.endedAt = e.at;
      a.error = d.error;
      a.retryAfterMs = d.meta?.retryAfterMs;
      if (d.evidenceId !== undefined && d.covers !== undefined) {
        a.evidenceId = d.evidenceId;
        putEvidence(run, { id: d.evidenceId, stepId: s.id, activation: a.activation, attempt: a.number, output: d.output, covers: d.covers, satisfies: false, fromRun: run.runId });
      }
      if (d.output !== undefined) s.output = d.output;
      return;
    }
    case 'attempt_unknown': {
      const s = stepOf(run, e);
      const a = attemptOf(s, e);
      a.state = 'unknown';
      a.endedAt = e.at;
      a.error = (e.data as RunEvent<'attempt_unknown'>['data']).error;
      if (a.effect === 'external') {
        run.unknowns.push({ stepId: s.id, inputHash: a.inputHash, inputRevision: run.inputRevision, fromRun: run.runId, activation: a.activation, attempt: a.number });
      }
      return;
    }
    case 'unknown_imported': {
      const d = e.data as RunEvent<'unknown_imported'>['data'];
      run.unknowns.push({ stepId: d.stepId, inputHash: d.inputHash, inputRevision: 0, fromRun: d.from.runId, activation: d.from.activation, attempt: d.from.attempt });
      return;
    }
    case 'retry_scheduled': {
      const s = stepOf(run, e);
      s.state = 'retry_wait';
      s.retryDueAt = (e.data as RunEvent<'retry_scheduled'>['data']).dueAt;
      return;
    }
    case 'timer_set': {
      const s = stepOf(run, e);
      s.state = 'waiting';
      s.timerDueAt = (e.data as RunEvent<'timer_set'>['data']).dueAt;
      return;
    }
    case 'timer_fired':
    case 'task_decided':
    case 'deadline_passed':
      // The step's timer (wait, deadline) is spent.
      stepOf(run, e).timerDueAt = null;
      return;
    case 'task_opened': {
      const s = stepOf(run, e);
      const d = e.data as RunEvent<'task_opened'>['data'];
      s.state = 'waiting';
      s.task = { task: d.task, title: d.title, instructions: d.instructions, assignee: d.assignee, form: d.form, options: d.options, deadlineAt: d.deadlineAt, openedAt: e.at };
      s.timerDueAt = d.deadlineAt ?? null;
      return;
    }
    case 'task_reassigned': {
      const s = stepOf(run, e);
      if (s.task) s.task.assignee = (e.data as RunEvent<'task_reassigned'>['data']).to;
      return;
    }
    case 'event_awaited': {
      const s = stepOf(run, e);
      const d = e.data as RunEvent<'event_awaited'>['data'];
      s.state = 'waiting';
      s.awaiting = { name: d.name, key: d.key };
      s.timerDueAt = d.deadlineAt ?? null;
      return;
    }
    case 'event_received': {
      const s = stepOf(run, e);
      s.timerDueAt = null;
      s.awaiting = null;
      return;
    }
    case 'event_duplicate':
      return;
    case 'evidence_reused': {
      const s = stepOf(run, e);
      const d = e.data as RunEvent<'evidence_reused'>['data'];
      const ev = run.evidence.get(d.evidenceId) ?? { id: d.evidenceId, stepId: s.id, activation: d.from.activation, attempt: d.from.attempt, output: d.output, covers: d.covers, satisfies: true, fromRun: d.from.runId };
      s.evidence = { ...ev, covers: d.covers };
      s.output = d.output;
      return;
    }
    case 'outcome_carried':
      return;
    case 'revision_held': {
      const s = stepOf(run, e);
      const d = e.data as RunEvent<'revision_held'>['data'];
      s.state = 'waiting';
      s.escalated = true;
      s.held = { evidenceId: d.evidenceId, inputHash: d.inputHash, reason: e.reason ?? '' };
      return;
    }
    case 'step_settled': {
      const s = stepOf(run, e);
      const d = e.data as RunEvent<'step_settled'>['data'];
      s.outcome = d.outcome;
      s.task = null;
      s.awaiting = null;
      s.held = null;
      s.escalated = false; // settling answers an earlier escalation (an escalated task that is decided)
      s.settledSeq = e.seq;
      s.state = d.outcome === 'timed_out' || d.outcome === 'expired' ? 'failed' : d.outcome;
      if (d.outcome === 'skipped') s.openedSeq = e.seq;
      if (d.outcome === 'succeeded' || d.outcome === 'rejected') run.view[s.id] = { output: s.output };
      const index = indexDefinition(run.workflow);
      for (const edge of d.edges) {
        run.edges.set(edge.id, { taken: edge.taken, seq: e.seq, why: edge.why });
        if (edge.taken && index.edges.get(edge.id)?.loop === true) run.traversals.set(edge.id, (run.traversals.get(edge.id) ?? 0) + 1);
      }
      const def = index.steps.get(s.id);
      if (def?.kind === 'end' && d.outcome === 'succeeded') run.endsReached.push({ stepId: s.id, status: def.config?.status ?? 'succeeded' });
      return;
    }
    case 'step_escalated': {
      const s = stepOf(run, e);
      s.escalated = true;
      const d = e.data as RunEvent<'step_escalated'>['data'];
      // An expired task that escalates stays open (waiting) for its person.
      if (d.outcome !== 'unknown' && s.state !== 'waiting') s.state = 'failed';
      return;
    }
  }
}

/** The latest attempt of the step's current activation. */
export function currentAttempt(s: StepRuntime): AttemptRecord | undefined {
  for (let i = s.attempts.length - 1; i >= 0; i--) {
    const a = s.attempts[i] as AttemptRecord;
    if (a.activation === s.activation) return a;
  }
  return undefined;
}

/** An attempt's id, also the id of the evidence it left: "STEP/ACTIVATION.ATTEMPT". */
export const attemptId = (stepId: string, a: { activation: number; number: number }): string => `${stepId}/${a.activation}.${a.number}`;

/** The id of the evidence an operator gave (weft skip, weft resolve --as succeeded) for an activation. */
export const operatorEvidenceId = (stepId: string, activation: number): string => `${stepId}/${activation}.operator`;

/**
 * Records evidence under its id and its step. Evidence that replaces an id takes the old one's
 * place in its step's list (the order of `evidence`, where a replaced id keeps its position).
 */
function putEvidence(run: RunModel, ev: Evidence): void {
  const old = run.evidence.get(ev.id);
  run.evidence.set(ev.id, ev);
  const oldList = old === undefined ? undefined : run.evidenceByStep.get(old.stepId);
  if (old !== undefined && oldList !== undefined) {
    const at = oldList.indexOf(old);
    if (old.stepId === ev.stepId) {
      oldList[at] = ev;
      return;
    }
    oldList.splice(at, 1);
  }
  const list = run.evidenceByStep.get(ev.stepId);
  if (list) list.push(ev);
  else run.evidenceByStep.set(ev.stepId, [ev]);
}
