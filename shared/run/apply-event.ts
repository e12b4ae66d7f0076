// `applyEvent`, the fold: one event changes the run model. RunEvent is a union discriminated by
// `type`, so each case reads its own data with no cast; a log that names a step or an attempt the
// run does not have, or skips a seq, throws rather than building a run that never was.
//
// Over 400 lines: one case per event type in one switch over the union, so what every event does
// to a run reads top to bottom in one place.
import type { RunEvent } from '../events/run-event.ts';
import { indexDefinition } from './definition-index.ts';
import { applyMigration } from './migrate-model.ts';
import { activationKey, operatorEvidenceId, type AttemptRecord, type Evidence, type RunDebug, type RunModel, type StepRuntime } from './run-model.ts';

const stepOf = (run: RunModel, e: RunEvent): StepRuntime => {
  const s = e.step === null ? undefined : run.steps.get(e.step);
  if (s === undefined) throw new Error(`run ${run.runId} event ${e.seq} (${e.type}) names step "${e.step}", which the definition does not have`);
  return s;
};

const attemptOf = (s: StepRuntime, e: RunEvent): AttemptRecord => {
  // From the end: an event almost always names the step's latest attempt, and a loop step has
  // thousands (a search from the front made folding a 100,000-event loop run quadratic).
  const a = s.attempts.findLast((x) => x.activation === e.activation && x.number === e.attempt);
  if (a === undefined) throw new Error(`event ${e.seq} (${e.type}) names attempt ${e.activation}.${e.attempt} of "${s.id}", which never started`);
  return a;
};

const debugOf = (run: RunModel, e: RunEvent): RunDebug => {
  if (run.debug === null) throw new Error(`run ${run.runId} event ${e.seq} (${e.type}) is a debug event, but the run is not a debug run`);
  return run.debug;
};

/**
 * Applies one event to the run model. Pure with respect to everything but `run`.
 *
 * @example
 * const model = newRunModel(runId, workflow);
 * for (const e of events) applyEvent(model, e);
 */
export function applyEvent(run: RunModel, e: RunEvent): void {
  if (e.seq !== run.lastSeq + 1) throw new Error(`run ${run.runId}: event ${e.seq} follows ${run.lastSeq}; the log has a gap`);
  run.lastSeq = e.seq;
  run.updatedAt = e.at;
  switch (e.type) {
    case 'run_created': {
      const d = e.data;
      run.definitionHash = d.definitionHash;
      run.workspaceDir = d.workspaceDir;
      run.input = d.input;
      run.createdAt = e.at;
      run.forkOf = d.forkOf;
      run.replayOf = d.replayOf;
      run.priority = d.priority ?? 0;
      run.key = d.key;
      run.parent = d.parent;
      run.policy = d.policy;
      run.startBudget = d.budget;
      run.debug = d.debug === undefined ? null : { breakpoints: [...d.debug.breakpoints], pins: { ...d.debug.pins }, pausedAt: null, passed: new Set(), stepping: false };
      return;
    }
    case 'child_started': {
      const s = stepOf(run, e);
      const index = e.data.index ?? 0;
      s.state = 'waiting';
      s.children.set(index, { runId: e.data.childRunId, state: null, output: undefined });
      run.childRuns.push({ runId: e.data.childRunId, stepId: s.id, activation: e.activation ?? s.activation, attempt: e.attempt ?? 0, index, state: null });
      return;
    }
    case 'child_finished': {
      const s = stepOf(run, e);
      const d = e.data;
      s.children.set(d.index ?? 0, { runId: d.childRunId, state: d.state, output: d.output });
      const child = run.childRuns.find((c) => c.runId === d.childRunId);
      if (child !== undefined) child.state = d.state;
      return;
    }
    case 'run_queued':
      run.queued = true;
      run.budgetWait = e.data.for === 'budget' && e.data.until !== undefined ? { until: e.data.until, reason: e.reason ?? '' } : null;
      return;
    case 'run_dequeued':
      run.queued = false;
      run.budgetWait = null;
      return;
    case 'operator_action': {
      const d = e.data;
      if (e.step === null) return;
      const s = stepOf(run, e);
      s.actedRevision = run.inputRevision;
      s.reopened = null; // the operator decided on this step: what it does next is that decision
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
      run.failing = { stepId: e.data.stepId, reason: e.reason ?? '' };
      return;
    case 'compensation_started':
      run.compensation = { pending: [...e.data.order], done: [] };
      return;
    case 'step_compensated': {
      const s = stepOf(run, e);
      s.state = 'compensated';
      // Its effect is offset: that evidence no longer counts as done (revision-decision.ts).
      if (s.evidence !== null) {
        s.evidence.offsetBy = e.data.compensatedBy;
        const stored = run.evidence.get(s.evidence.id);
        if (stored !== undefined) stored.offsetBy = e.data.compensatedBy;
      }
      if (run.compensation) {
        run.compensation.pending = run.compensation.pending.filter((x) => x !== s.id);
        run.compensation.done.push(s.id);
      }
      return;
    }
    case 'run_input_revised': {
      run.input = e.data.input;
      run.inputRevision = e.data.inputRevision;
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
        s.dueSince = null;
        s.timerDueAt = null;
        s.held = null;
        s.passedOver = null;
        s.superseded = null;
        s.reopened = null;
      }
      return;
    }
    case 'run_state_changed':
      // Leaving the pause passes the breakpoint it was at (continue, step, resume, a revision, a
      // cancel): that activation starts without stopping there again.
      if (run.debug !== null && run.debug.pausedAt !== null && e.data.state !== 'paused') {
        run.debug.passed.add(activationKey(run.debug.pausedAt.stepId, run.debug.pausedAt.activation));
        run.debug.pausedAt = null;
      }
      // An operator's retry, skip or resolve reopens a failed run: it is no longer failing, so
      // what follows the step runs. Steps already compensated stay as they are.
      if (run.state === 'failed' && e.data.state === 'running') {
        run.failing = null;
        run.compensation = null;
      }
      run.state = e.data.state;
      return;
    case 'engine_resumed':
      return;
    case 'evidence_imported': {
      const d = e.data;
      putEvidence(run, { id: d.evidenceId, stepId: d.stepId, activation: d.from.activation, attempt: d.from.attempt, output: d.output, covers: d.covers, satisfies: true, fromRun: d.from.runId, ...(d.offsetBy === undefined ? {} : { offsetBy: d.offsetBy }) });
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
      s.dueSince = e.at;
      s.timerDueAt = null;
      s.task = null;
      s.awaiting = null;
      s.held = null;
      s.superseded = null;
      s.passedOver = null;
      const { input, compensates } = e.data;
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
      const d = e.data;
      s.state = 'running';
      s.children = new Map();
      s.retryDueAt = null;
      s.actedRevision = run.inputRevision;
      s.reopened = null;
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
        output: undefined,
        meta: undefined,
        queuedAt: s.dueSince,
        ...(d.pinned === true ? { pinned: true } : {}),
        ...(d.route === undefined ? {} : { route: d.route }),
      });
      s.dueSince = null;
      return;
    }
    case 'attempt_succeeded': {
      const s = stepOf(run, e);
      const a = attemptOf(s, e);
      const d = e.data;
      a.state = 'succeeded';
      a.endedAt = e.at;
      a.evidenceId = d.evidenceId;
      a.output = d.output;
      a.meta = d.meta;
      const ev: Evidence = { id: d.evidenceId, stepId: s.id, activation: a.activation, attempt: a.number, output: d.output, covers: d.covers, satisfies: true, fromRun: run.runId, ...(d.pinned === true ? { pinned: true } : {}) };
      putEvidence(run, ev);
      s.evidence = ev;
      s.output = d.output;
      return;
    }
    case 'attempt_failed': {
      const s = stepOf(run, e);
      const a = attemptOf(s, e);
      const d = e.data;
      a.state = 'failed';
      a.endedAt = e.at;
      a.error = d.error;
      a.retryAfterMs = d.meta?.retryAfterMs;
      a.output = d.output;
      a.meta = d.meta;
      if (d.evidenceId !== undefined && d.covers !== undefined) {
        a.evidenceId = d.evidenceId;
        putEvidence(run, { id: d.evidenceId, stepId: s.id, activation: a.activation, attempt: a.number, output: d.output, covers: d.covers, satisfies: false, fromRun: run.runId, ...(d.pinned === true ? { pinned: true } : {}) });
      }
      if (d.output !== undefined) s.output = d.output;
      return;
    }
    case 'attempt_unknown': {
      const s = stepOf(run, e);
      const a = attemptOf(s, e);
      a.state = 'unknown';
      a.endedAt = e.at;
      a.error = e.data.error;
      a.meta = e.data.meta;
      if (a.effect === 'external') {
        run.unknowns.push({ stepId: s.id, inputHash: a.inputHash, inputRevision: run.inputRevision, fromRun: run.runId, activation: a.activation, attempt: a.number });
      }
      return;
    }
    case 'attempt_partial': {
      // The part done is the attempt's output and, like a failure's kept output, the step's for
      // now: the next attempt continues from it, and a `partial` edge's step reads it.
      const s = stepOf(run, e);
      const a = attemptOf(s, e);
      a.state = 'partial';
      a.endedAt = e.at;
      a.output = e.data.output;
      a.meta = e.data.meta;
      if (e.data.remaining !== undefined) a.remaining = e.data.remaining;
      s.output = e.data.output;
      return;
    }
    case 'unknown_imported': {
      const d = e.data;
      run.unknowns.push({ stepId: d.stepId, inputHash: d.inputHash, inputRevision: 0, fromRun: d.from.runId, activation: d.from.activation, attempt: d.from.attempt });
      return;
    }
    case 'retry_scheduled': {
      const s = stepOf(run, e);
      s.state = 'retry_wait';
      s.retryDueAt = e.data.dueAt;
      s.dueSince = e.data.dueAt;
      return;
    }
    case 'timer_set': {
      const s = stepOf(run, e);
      s.state = 'waiting';
      s.timerDueAt = e.data.dueAt;
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
      const d = e.data;
      s.state = 'waiting';
      s.task = { task: d.task, title: d.title, instructions: d.instructions, assignee: d.assignee, form: d.form, options: d.options, deadlineAt: d.deadlineAt, openedAt: e.at };
      s.timerDueAt = d.deadlineAt ?? null;
      return;
    }
    case 'task_reassigned': {
      const s = stepOf(run, e);
      if (s.task) s.task.assignee = e.data.to;
      return;
    }
    case 'event_awaited': {
      const s = stepOf(run, e);
      const d = e.data;
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
      const d = e.data;
      const ev = run.evidence.get(d.evidenceId) ?? { id: d.evidenceId, stepId: s.id, activation: d.from.activation, attempt: d.from.attempt, output: d.output, covers: d.covers, satisfies: true, fromRun: d.from.runId };
      s.evidence = { ...ev, covers: d.covers };
      s.output = d.output;
      return;
    }
    case 'outcome_carried':
      return;
    case 'revision_held': {
      const s = stepOf(run, e);
      s.state = 'waiting';
      s.escalated = true;
      s.held = { evidenceId: e.data.evidenceId, inputHash: e.data.inputHash, reason: e.reason ?? '' };
      return;
    }
    case 'step_settled': {
      const s = stepOf(run, e);
      const d = e.data;
      s.outcome = d.outcome;
      s.settledReason = e.reason;
      s.task = null;
      s.awaiting = null;
      s.held = null;
      s.escalated = false; // settling answers an earlier escalation (an escalated task that is decided)
      s.settledSeq = e.seq;
      s.dueSince = null;
      // A partial step did not finish its work: its state is failed (retry continues it), its outcome partial.
      s.state = d.outcome === 'timed_out' || d.outcome === 'expired' || d.outcome === 'budget_exceeded' || d.outcome === 'stale' || d.outcome === 'partial' ? 'failed' : d.outcome;
      s.reopened = null;
      if (d.outcome === 'skipped') {
        // The decisions after passFrom led to this skip: a re-decision judges them again from there.
        s.passFrom = s.openedSeq;
        s.openedSeq = e.seq;
      } else s.lastSettled = { activation: e.activation ?? s.activation, outcome: d.outcome };
      // A step settled while it still waited (a task nobody answered, a withdrawn or cancelled
      // activation): its open attempt ends here, so no attempt of a settled step looks in flight.
      if (d.outcome === 'skipped' || d.outcome === 'cancelled') {
        for (const a of s.attempts) {
          if (a.activation === e.activation && a.state === 'running' && a.endedAt === null) {
            a.state = 'cancelled';
            a.endedAt = e.at;
          }
        }
      }
      if (d.outcome === 'succeeded' || d.outcome === 'rejected' || d.outcome === 'partial') run.view[s.id] = { output: s.output };
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
      // An expired task that escalates stays open (waiting) for its person.
      if (e.data.outcome !== 'unknown' && s.state !== 'waiting') s.state = 'failed';
      return;
    }
    case 'step_revalidated': {
      const s = stepOf(run, e);
      const d = e.data;
      s.revalidation = { seq: e.seq, at: e.at, activation: e.activation ?? s.activation, attempt: e.attempt, trigger: d.trigger, waitedMs: d.waitedMs, check: d.check, inputs: d.inputs, verdict: d.verdict, why: d.why };
      return;
    }
    case 'policy_escalated': {
      run.escalations.push({ stepId: stepOf(run, e).id, activation: e.activation ?? 0, rule: e.data.rule, to: e.data.to, at: e.at, reason: e.reason ?? `policy "${e.data.rule}"` });
      return;
    }
    case 'step_passed_over': {
      const s = stepOf(run, e);
      for (const edge of e.data.edges) run.edges.set(edge.id, { taken: edge.taken, seq: e.seq, why: edge.why });
      s.passFrom = s.openedSeq;
      s.openedSeq = e.seq;
      s.reopened = null;
      s.passedOver = { seq: e.seq, reason: e.reason ?? '' };
      run.endsReached = run.endsReached.filter((x) => x.stepId !== s.id);
      return;
    }
    case 'path_reopened': {
      const index = indexDefinition(run.workflow);
      for (const id of e.data.edges) run.edges.delete(id);
      const reopened = new Set<string>();
      for (const r of e.data.steps) {
        const s = run.steps.get(r.stepId);
        if (s === undefined) throw new Error(`run ${run.runId} event ${e.seq} (path_reopened) names step "${r.stepId}", which the definition does not have`);
        reopened.add(s.id);
        // It is decided again, judged on the decisions of the pass that settled it (those of the
        // steps re-decided now were withdrawn above; the others still hold). A skip and a join
        // (which has no effect) are decided afresh; a step that did work keeps what it did on
        // record until the new decisions activate it again or pass it over.
        if (s.state === 'skipped' || index.steps.get(s.id)?.kind === 'join') s.state = 'blocked';
        else if (s.lastSettled !== null) s.superseded = { seq: e.seq, activation: s.lastSettled.activation, outcome: s.lastSettled.outcome, cause: e.data.cause };
        s.openedSeq = s.passFrom;
        s.escalated = false;
        s.reopened = { seq: e.seq, activation: s.activation };
      }
      // An end step reached on the superseded path no longer ends the run.
      run.endsReached = run.endsReached.filter((x) => !reopened.has(x.stepId));
      return;
    }
    case 'breakpoint_hit': {
      const s = stepOf(run, e);
      const debug = debugOf(run, e);
      debug.pausedAt = { stepId: s.id, activation: e.activation ?? s.activation };
      debug.stepping = false;
      return;
    }
    case 'run_migrated':
      applyMigration(run, e);
      return;
    case 'debug_resumed':
      debugOf(run, e).stepping = e.data.mode === 'step';
      return;
    case 'note_added':
      run.notes.push({ seq: e.seq, at: e.at, stepId: e.step, text: e.data.text, by: e.data.by });
      return;
    case 'artifact_opened':
      return; // a record of who looked: it changes nothing in the run
  }
}

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
