// The scheduler core. It folds every change into the run model through an event (append + apply),
// commits each tick's events in one transaction before acting on them (starting executors,
// setting timers), and fsyncs that commit when it records the start of an external attempt.
// Pure step kinds (transform, router, join, end) run inline inside the tick: they have no effect
// on the world, so recording their start and result in the same commit loses nothing.
import type { StepKind, RunState } from '../../shared/definition/names.ts';
import type { Step, Workflow } from '../../shared/definition/workflow-schema.ts';
import { widenEvent, type EventData, type EventType, type RunEvent, type SettleOutcome } from '../../shared/events/run-event.ts';
import type { AttemptResult, Executor } from '../executors/executor.ts';
import type { Store } from '../store/store.ts';
import { StoreError } from '../store/store-error.ts';
import { newRunId, type Clock, type Random } from './clock.ts';
import { indexDefinition, type DefinitionIndex } from '../../shared/run/definition-index.ts';
import { decideEdges } from './edge-decisions.ts';
import { ACTIVATION, evaluate, renderTemplate, type RunContext } from './expressions.ts';
import { checkAgainstSchema } from './output-contract.ts';
import { readiness } from './readiness.ts';
import { coverageHash } from './input-coverage.ts';
import { INLINE_KINDS, runInlineStep } from './inline-steps.ts';
import { decideRevision } from './revision-decision.ts';
import { backoffMs, configForAttempt, mayRetry } from './retry-policy.ts';
import { foldRun } from './fold-run.ts';
import { repairMissingRuns, runRow, stepRow } from './projections.ts';
import { runActionRefusal } from '../../shared/run/action-rules.ts';
import { applyEvent } from '../../shared/run/apply-event.ts';
import { attemptId, currentAttempt, newRunModel, type AttemptRecord, type Evidence, type RunModel, type StepRuntime } from '../../shared/run/run-model.ts';
import { desiredRunState, isQuiet, isTerminal } from '../../shared/run/run-status.ts';
import type { TrustCheck } from './workspace-workflows.ts';
import type { AttemptErrorCode } from '../../shared/events/attempt-error-codes.ts';

export interface EngineOptions {
  store: Store;
  clock: Clock;
  random: Random;
  executors: Partial<Record<StepKind, Executor>>;
  /** Called when a tick throws: the engine cannot go on safely (for example the disk is full). */
  onFatal?: (error: unknown) => void;
  /** Refuses child workflows that would run code from an untrusted workspace (none: no check, as in scenarios). */
  workspaceTrust?: TrustCheck;
}

export interface Completion {
  stepId: string;
  activation: number;
  attempt: number;
  result: AttemptResult;
}

export interface Launch {
  live: LiveRun;
  stepId: string;
  activation: number;
  attempt: number;
  countedAttempt: number;
  executor: Executor;
  input: unknown;
  config: Record<string, unknown>;
  step: Step;
  idempotencyKey: string | undefined;
}

export interface LiveRun {
  model: RunModel;
  index: DefinitionIndex;
  dirty: Set<string>;
  ready: string[];
  inbox: Completion[];
  due: string[];
  running: Map<string, { controller: AbortController; cancelTimeout: (() => void) | undefined }>;
  timers: Map<string, () => void>;
  touched: Set<string>;
  waiters: (() => void)[];
  /** Steps whose running attempt holds a slot of a resource pool (released when its end is logged). */
  holding: Set<string>;
  parentNotified: boolean;
  /** The items (and child definition) of map and subworkflow steps being run, by step id. */
  childItems: Map<string, { items: unknown[]; def: { workflow: Workflow; hash: string } }>;
  /** True while a tick advances this run: its state is between two consistent points. */
  busy: boolean;
  /** Operator actions and deliveries, applied inside the next tick so they never interleave with one. */
  actions: (() => Promise<void>)[];
  /** This run may have step rows in the projection (true for runs loaded from the store). */
  stepRows: boolean;
  /** The `run` object of expression contexts, rebuilt when the input revision changes. */
  runInfo: { id: string; workflowId: string; version: number; inputRevision: number; startedAt: string } | undefined;
}

export interface StartRunOptions {
  workflow: Workflow;
  definitionHash: string;
  input: unknown;
  workspaceDir: string;
  forkOf?: { runId: string; fromStep: string };
  importEvidence?: Evidence[];
  importUnknowns?: RunModel['unknowns'];
  /** Higher runs first when runs queue under limits.maxParallelRuns (default 0). */
  priority?: number;
  /** Idempotency key of run creation; the caller checks the store for an earlier run with it. */
  key?: string;
  /** The subworkflow or map step this run is a child of. */
  parent?: { runId: string; stepId: string; activation: number; attempt: number; index?: number };
}

/** How long an aborted executor may take to stop before its attempt is ended without it. */
const ABORT_GRACE_MS = 10_000;

/** A concurrency pool of limits.concurrency, shared by every run this engine schedules. */
export interface Pool {
  limit: number;
  inUse: number;
  queue: { live: LiveRun; stepId: string }[];
}export abstract class EngineCore {
  protected readonly runs = new Map<string, LiveRun>();
  protected readonly pools = new Map<string, Pool>();
  protected readonly dirtyRuns = new Set<string>();
  /**
   * Runs with events not yet projected. Every one is projected before the commit that writes its
   * events, whether or not the tick advanced it: a child run created by its parent's tick, or a
   * queued run dequeued after it, gets its `runs` row in the commit of its `run_created`.
   */
  protected readonly unprojected = new Set<LiveRun>();
  protected launches: Launch[] = [];
  protected needDurable = false;
  protected tickScheduled = false;
  protected ticking = false;
  protected closed = false;
  /** The store failure that stopped this engine for good (see fail()). */
  protected fatal: { error: unknown } | undefined;
  /** Set by drain(): attempts that would start a process, request or child run wait for the next engine. */
  protected draining = false;
  /** Rejections of operator actions still queued, so a store failure ends their callers' waits. */
  protected readonly pendingActions = new Set<(error: unknown) => void>();
  /** Operator actions applied in this tick: their callers hear of them once the tick's commit is written. */
  protected appliedActions: (() => void)[] = [];
  /** Callers of drain() waiting for the running attempts to end. */
  protected drainWaiters: (() => void)[] = [];

  constructor(protected readonly o: EngineOptions) {}


  /** Creates a run and schedules it; returns its id. The definition must be saved already. */
  startRun(opts: StartRunOptions): string {
    const now = this.o.clock.now();
    const runId = newRunId(now, this.o.random);
    this.o.store.newRun(runId);
    const live = this.live(newRunModel(runId, opts.workflow));
    this.emit(live, 'run_created', {
      ...(opts.parent === undefined ? {} : { parent: opts.parent }),
      ...(opts.priority === undefined ? {} : { priority: opts.priority }),
      ...(opts.key === undefined ? {} : { key: opts.key }),
      workflowId: opts.workflow.id,
      version: opts.workflow.version,
      definitionHash: opts.definitionHash,
      workspaceDir: opts.workspaceDir,
      input: opts.input,
      ...(opts.forkOf ? { forkOf: opts.forkOf } : {}),
    }, opts.forkOf ? { reason: `fork of ${opts.forkOf.runId} from step "${opts.forkOf.fromStep}"` } : {});
    for (const ev of opts.importEvidence ?? []) {
      this.emit(live, 'evidence_imported', { evidenceId: ev.id, stepId: ev.stepId, output: ev.output, covers: ev.covers, from: { runId: ev.fromRun, activation: ev.activation, attempt: ev.attempt } }, { step: ev.stepId });
    }
    for (const u of opts.importUnknowns ?? []) {
      this.emit(live, 'unknown_imported', { stepId: u.stepId, inputHash: u.inputHash, from: { runId: u.fromRun, activation: u.activation, attempt: u.attempt } }, { step: u.stepId });
    }
    const max = opts.workflow.limits?.maxParallelRuns;
    const busy = max === undefined ? 0 : this.runningCount(opts.workflow.id, runId);
    if (max !== undefined && busy >= max) {
      this.emit(live, 'run_queued', { priority: opts.priority ?? 0 }, { reason: `${busy} of ${max} parallel runs of "${opts.workflow.id}" are running` });
      this.emit(live, 'run_state_changed', { state: 'waiting' }, { reason: 'queued for a free run slot (limits.maxParallelRuns)' });
    } else this.activateEntries(live, 'entry step');
    this.markDirty(live);
    return runId;
  }

  /** Runs of a workflow that are running now: this engine's, and those the store lists. */
  protected runningCount(workflowId: string, except: string): number {
    const ids = new Set(this.o.store.runningRunIds(workflowId));
    for (const live of this.runs.values()) {
      const m = live.model;
      if (m.workflow.id !== workflowId || m.runId === except) continue;
      if (m.state === 'running' && !m.queued) ids.add(m.runId);
      else ids.delete(m.runId);
    }
    ids.delete(except);
    return ids.size;
  }

  /** When a run slot frees, the queued run with the highest priority (then the oldest) starts. */
  protected dequeue(workflowId: string): void {
    const queued = [...this.runs.values()].filter((l) => l.model.queued && l.model.workflow.id === workflowId && l.model.state === 'waiting');
    const first = queued.sort((a, b) => b.model.priority - a.model.priority || a.model.createdAt - b.model.createdAt)[0];
    if (first === undefined) return;
    const max = first.model.workflow.limits?.maxParallelRuns ?? Infinity;
    if (this.runningCount(workflowId, first.model.runId) >= max) return;
    this.emit(first, 'run_dequeued', {}, { reason: 'a run slot is free' });
    this.emit(first, 'run_state_changed', { state: 'running' }, { reason: 'dequeued' });
    this.activateEntries(first, 'entry step');
    this.markDirty(first);
  }

  /** Adds an input revision: the run passes over its graph again, reusing evidence whose coverage still matches. */
  revise(runId: string, input: unknown): number {
    const live = this.load(runId);
    const refusal = runActionRefusal(live.model, 'revise');
    if (refusal !== undefined) throw new StoreError(refusal.code, refusal.message);
    const revision = live.model.inputRevision + 1;
    for (const cancel of live.timers.values()) cancel();
    live.timers.clear();
    live.due = [];
    live.ready = [];
    this.emit(live, 'run_input_revised', { inputRevision: revision, input }, { reason: `input revision ${revision}` });
    if (live.model.state !== 'running') this.emit(live, 'run_state_changed', { state: 'running' }, { reason: `input revised to revision ${revision}` });
    this.activateEntries(live, `input revision ${revision}`);
    this.markDirty(live);
    return revision;
  }

  /** Loads (or returns) a run from the log; recovers attempts that a stopped engine left running. */
  load(runId: string): LiveRun {
    const existing = this.runs.get(runId);
    if (existing) return existing;
    const model = foldRun(this.o.store, runId);
    this.o.store.knownLastSeq(runId, model.lastSeq);
    const live = this.live(model);
    this.recoverLive(live);
    return live;
  }

  /** Continues every unfinished run of the store. Returns how many runs and interrupted attempts. */
  recover(): { runs: number; interrupted: number } {
    // A run the log has and `runs` lacks would never be listed, resumed or inspected: its row is
    // rebuilt first, so it is recovered below like any other.
    repairMissingRuns(this.o.store);
    let interrupted = 0;
    let runs = 0;
    const queuedWorkflows = new Set<string>();
    for (const id of this.o.store.unfinishedRunIds()) {
      if (this.runs.has(id)) continue;
      const live = this.load(id);
      runs++;
      interrupted += live.inbox.length;
      if (live.model.queued) queuedWorkflows.add(live.model.workflow.id);
    }
    for (const w of queuedWorkflows) this.dequeue(w);
    return { runs, interrupted };
  }

  /** Resolves when the run has ended or only waiting work (people, events, timers, escalations) remains. */
  settled(runId: string): Promise<RunState> {
    if (this.fatal !== undefined) return Promise.reject(this.fatal.error);
    const live = this.runs.get(runId);
    if (live === undefined) return Promise.resolve(this.o.store.getRun(runId)?.state ?? 'failed');
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (this.fatal !== undefined) reject(this.fatal.error);
        else if (this.isSettled(live)) resolve(live.model.state);
        else live.waiters.push(check);
      };
      check();
    });
  }

  model(runId: string): RunModel | undefined {
    return this.runs.get(runId)?.model;
  }

  /** Stops timers and aborts running attempts; the log already holds everything needed to resume. */
  close(): void {
    this.closed = true;
    for (const executor of new Set(Object.values(this.o.executors))) executor?.close?.();
    for (const live of this.runs.values()) {
      for (const cancel of live.timers.values()) cancel();
      for (const r of live.running.values()) {
        r.cancelTimeout?.();
        r.controller.abort(new Error('engine shut down'));
      }
    }
  }

  /**
   * Stops the engine for good after a failure of its store (a full disk, a damaged file): nothing
   * more is written or started, timers and running attempts stop, and everyone waiting on a run,
   * an operator action or a drain hears the error instead of waiting forever.
   */
  fail(error: unknown): void {
    if (this.fatal !== undefined) return;
    this.fatal = { error };
    this.close();
    this.o.onFatal?.(error);
    for (const reject of this.pendingActions) reject(error);
    this.pendingActions.clear();
    for (const live of [...this.runs.values()]) this.wake(live);
    this.wakeDrain();
  }

  /**
   * Before the store is given back: starts no new attempt of a kind that runs outside the engine
   * (a process, a request, a child run; such a step stays ready for the next engine) and resolves
   * when every attempt this engine started has ended and its end is recorded. A command that
   * exits sooner would kill them halfway, and the next engine would record them interrupted.
   */
  drain(): Promise<void> {
    this.draining = true;
    return new Promise((resolve) => {
      const check = (): void => {
        if (this.closed || (this.idle && [...this.runs.values()].every((l) => l.running.size === 0 && l.inbox.length === 0))) resolve();
        else this.drainWaiters.push(check);
      };
      check();
    });
  }

  protected wakeDrain(): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const w of waiters) w();
  }

  /**
   * True when the engine has nothing to do until a timer fires or an executor answers: no tick is
   * scheduled or running and no run is marked for work. A virtual-time driver advances the clock
   * only then.
   */
  get idle(): boolean {
    return !this.tickScheduled && !this.ticking && this.dirtyRuns.size === 0;
  }

  /** Writes whatever is pending (the CLI calls this before exiting). */
  flush(): void {
    this.projectPending();
    this.o.store.flush(this.needDurable);
    this.needDurable = false;
  }


  protected emit<T extends EventType>(
    live: LiveRun,
    type: T,
    data: EventData<T>,
    extra: { step?: string; activation?: number; attempt?: number; reason?: string } = {},
  ): RunEvent<T> {
    const e = this.o.store.append({ runId: live.model.runId, type, at: this.o.clock.now(), data, ...extra });
    applyEvent(live.model, widenEvent(e));
    if (extra.step !== undefined) live.touched.add(extra.step);
    this.unprojected.add(live);
    return e;
  }

  protected live(model: RunModel): LiveRun {
    const live: LiveRun = {
      model,
      index: indexDefinition(model.workflow),
      dirty: new Set(),
      ready: [],
      inbox: [],
      due: [],
      running: new Map(),
      timers: new Map(),
      touched: new Set(),
      waiters: [],
      runInfo: undefined,
      actions: [],
      busy: false,
      parentNotified: false,
      childItems: new Map(),
      holding: new Set(),
      stepRows: model.lastSeq > 0,
    };
    // A finished run loaded only to be looked at, or refused, is not kept: it joins the live runs
    // when something is queued on it (markDirty), and wake() lets it go again.
    if (!isTerminal(model.state)) this.runs.set(model.runId, live);
    return live;
  }

  protected activateEntries(live: LiveRun, reason: string): void {
    for (const id of live.index.entries) this.activate(live, id, reason);
  }

  protected activate(live: LiveRun, stepId: string, reason: string): void {
    const s = live.model.steps.get(stepId) as StepRuntime;
    this.emit(live, 'step_activated', {}, { step: stepId, activation: s.activation + 1, reason });
    live.ready.push(stepId);
  }

  /** After a load: interrupted attempts become completions, timers are re-armed, work is queued. */
  protected recoverLive(live: LiveRun): void {
    const m = live.model;
    if (isTerminal(m.state)) return;
    let interrupted = 0;
    const timed: { stepId: string; dueAt: number }[] = [];
    for (const s of m.steps.values()) {
      if (s.state === 'running') {
        const a = currentAttempt(s);
        if (a && a.state === 'running') {
          interrupted++;
          const result: AttemptResult = a.effect === 'external'
            ? { outcome: 'unknown', reason: 'the engine stopped during this attempt; whether its effect happened is unknown' }
            : { outcome: 'failed', code: 'interrupted', message: 'the engine stopped during this attempt; it is run again', retryable: true };
          live.inbox.push({ stepId: s.id, activation: a.activation, attempt: a.number, result });
        }
      } else if (s.state === 'ready') live.ready.push(s.id);
      else if (s.state === 'retry_wait' && s.retryDueAt !== null) timed.push({ stepId: s.id, dueAt: s.retryDueAt });
      else if (s.state === 'waiting' && s.timerDueAt !== null) timed.push({ stepId: s.id, dueAt: s.timerDueAt });
      else if (s.state === 'blocked' || s.state === 'skipped') live.dirty.add(s.id);
      else if (s.state === 'failed' && live.index.steps.get(s.id)?.kind === 'join') live.dirty.add(s.id); // a branch may have arrived after it failed
      if (s.state === 'waiting' && s.children.size > 0) {
        // A child may have ended while no engine listened; and a map may have items to start.
        live.actions.push(() => this.catchUpChildren(live, s.id));
      }
    }
    // Overdue timers fire at once, in the order they were due.
    timed.sort((a, b) => a.dueAt - b.dueAt);
    const now = this.o.clock.now();
    for (const t of timed) {
      if (t.dueAt <= now) live.due.push(t.stepId);
      else this.arm(live, t.stepId, t.dueAt);
    }
    // Only a stop that cut attempts short is an event; re-arming timers changes nothing.
    if (interrupted > 0) this.emit(live, 'engine_resumed', { interrupted }, { reason: `${interrupted} attempt(s) were interrupted by a stop` });
    this.markDirty(live);
  }


  protected markDirty(live: LiveRun): void {
    if (!this.runs.has(live.model.runId)) this.runs.set(live.model.runId, live);
    this.dirtyRuns.add(live.model.runId);
    this.kick();
  }

  protected kick(): void {
    if (this.tickScheduled || this.closed) return;
    this.tickScheduled = true;
    setImmediate(() => void this.tick());
  }

  protected async tick(): Promise<void> {
    this.tickScheduled = false;
    if (this.closed) return; // a closed engine writes nothing more and starts nothing
    if (this.ticking) {
      this.kick();
      return;
    }
    this.ticking = true;
    const advanced: LiveRun[] = [];
    try {
      const ids = [...this.dirtyRuns];
      this.dirtyRuns.clear();
      for (const id of ids) {
        const live = this.runs.get(id);
        if (live === undefined) continue;
        live.busy = true;
        try {
          await this.advance(live);
        } finally {
          live.busy = false;
        }
        advanced.push(live);
        if (isTerminal(live.model.state) && live.model.parent !== undefined && !live.parentNotified) {
          live.parentNotified = true;
          await this.notifyParent(live);
        }
      }
      if (this.closed) return; // closed while this tick ran: write nothing more
      this.freeSlots(advanced);
      this.projectPending();
      this.o.store.flush(this.needDurable);
      this.needDurable = false;
      const applied = this.appliedActions;
      this.appliedActions = [];
      for (const done of applied) done();
    } catch (e) {
      this.ticking = false;
      const handled = this.o.onFatal !== undefined;
      this.fail(e);
      if (!handled) throw e;
      return;
    }
    this.ticking = false;
    const launches = this.launches;
    this.launches = [];
    if (!this.closed) for (const l of launches) this.launch(l);
    for (const live of advanced) this.wake(live);
    if (this.dirtyRuns.size > 0) this.kick();
    else this.wakeDrain();
  }

  protected wake(live: LiveRun): void {
    const waiters = live.waiters;
    live.waiters = [];
    for (const w of waiters) w();
    // A parent waiting on this child may now be settled (or not): its waiters look again.
    const parent = live.model.parent === undefined ? undefined : this.runs.get(live.model.parent.runId);
    if (parent !== undefined && parent !== live) this.wake(parent);
    // A finished run leaves memory once nothing of it is running or waiting to be recorded.
    if (isTerminal(live.model.state) && live.running.size === 0 && live.inbox.length === 0 && live.waiters.length === 0) this.runs.delete(live.model.runId);
  }

  protected isSettled(live: LiveRun): boolean {
    if (live.busy || this.dirtyRuns.has(live.model.runId) || live.inbox.length > 0 || live.actions.length > 0) return false;
    if (isTerminal(live.model.state)) return true;
    if (live.model.state === 'paused') return live.running.size === 0; // nothing moves until resumed
    if (live.model.queued) {
      // Queued behind runs this engine drives: it will start when one of them ends.
      const wid = live.model.workflow.id;
      return ![...this.runs.values()].some((l) => l.model.workflow.id === wid && !l.model.queued && l.model.state === 'running');
    }
    if (live.due.length > 0) return false;
    if (live.dirty.size > 0 || live.ready.length > 0) return false;
    if (live.model.state === 'running' || !isQuiet(live.model)) return false;
    // A step waiting on child runs this engine drives is work in progress, not a wait: a command
    // that drives the parent waits for them too, rather than exit and cut their attempts short.
    for (const s of live.model.steps.values()) {
      if (s.state !== 'waiting') continue;
      for (const c of s.children.values()) {
        const child = c.state === null ? this.runs.get(c.runId) : undefined;
        if (child !== undefined && !this.isSettled(child)) return false;
      }
    }
    return true;
  }

  protected projectPending(): void {
    for (const live of this.unprojected) this.project(live);
    this.unprojected.clear();
  }

  /**
   * Projections: the run's row always; step rows only while the run is unfinished (the live
   * state an operator or a task list queries). A finished run's steps are read from its log, so a
   * run that starts and ends in one tick writes no step rows at all.
   */
  protected project(live: LiveRun): void {
    const m = live.model;
    this.o.store.setRunProjection(runRow(m));
    if (isTerminal(m.state)) {
      if (live.stepRows) this.o.store.clearStepProjection(m.runId);
      live.stepRows = false;
      live.touched.clear();
      return;
    }
    if (live.touched.size > 0) live.stepRows = true;
    for (const id of live.touched) {
      const s = m.steps.get(id);
      if (s === undefined) continue;
      this.o.store.setStepProjection(m.runId, stepRow(s));
    }
    live.touched.clear();
  }

  protected async advance(live: LiveRun): Promise<void> {
    const m = live.model;
    const inbox = live.inbox;
    live.inbox = [];
    for (const c of inbox) await this.onResult(live, c);
    const actions = live.actions;
    live.actions = [];
    for (const act of actions) await act();
    // Paused (or queued): results are recorded and routed and steps become ready, but no attempt
    // starts and timers wait until the run is resumed.
    const held = m.state === 'paused' || m.queued;
    if (!held) {
      const due = live.due;
      live.due = [];
      for (const stepId of due) await this.onTimer(live, stepId);
    }
    // Route and start, then decide the run's state, until a pass writes nothing. A pass can settle
    // steps inside the tick (an inline step, reused evidence), a compensation among them, and then
    // no executor or timer will bring the run back: only another pass acts on what that settled.
    let seen: number;
    do {
      seen = m.lastSeq;
      await this.route(live, held);
      if (isTerminal(m.state) || held) return;
      await this.decideRunState(live);
    } while (m.lastSeq !== seen && !isTerminal(m.state));
    if (m.state === 'running' && isQuiet(m)) {
      // Nothing is ready, running or retrying, so nothing will tick this run again: say so rather
      // than leave it running forever (settled() would never resolve; the CLI would exit silently).
      this.emit(live, 'run_state_changed', { state: 'needs_attention' }, {
        reason: 'no step is ready, running or waiting, yet the run has not ended (an engine defect: report it with the output of weft events); cancel the run, or retry or skip a step',
      });
    }
  }

  /** Activates what became ready and starts ready steps (none while held), until nothing changes. */
  protected async route(live: LiveRun, held: boolean): Promise<void> {
    const m = live.model;
    while (!isTerminal(m.state) && (live.dirty.size > 0 || (!held && live.ready.length > 0))) {
      const dirty = [...live.dirty];
      live.dirty.clear();
      for (const id of dirty) await this.checkReadiness(live, id);
      while (!held && live.ready.length > 0 && !isTerminal(m.state)) {
        const id = live.ready.shift() as string;
        const s = m.steps.get(id);
        if (s?.state !== 'ready') continue;
        if (m.failing !== null && s.compensates === null) await this.settle(live, s, 'cancelled', 'the run is failing: nothing new starts');
        else await this.startAttempt(live, id);
      }
    }
  }

  /** Moves the run to the state its steps call for; a run that is to fail compensates first. */
  protected async decideRunState(live: LiveRun): Promise<void> {
    const m = live.model;
    const want = desiredRunState(m);
    if (want.state !== 'running' && want.state !== 'needs_attention' && (m.failing !== null || want.state === 'failed')) {
      if (await this.compensateOrFail(live, m.failing?.reason ?? want.reason)) return;
    }
    if (want.state !== m.state && !(m.compensation !== null && want.state === 'succeeded')) {
      this.emit(live, 'run_state_changed', { state: want.state }, { reason: want.reason });
    }
  }

  /** After a tick: runs that stopped running may free slots for queued runs of their workflow. */
  protected freeSlots(advanced: readonly LiveRun[]): void {
    const workflows = new Set<string>();
    for (const live of advanced) {
      const m = live.model;
      if (m.workflow.limits?.maxParallelRuns !== undefined && m.state !== 'running') workflows.add(m.workflow.id);
    }
    for (const id of workflows) this.dequeue(id);
  }

  /**
   * A run that is to fail first offsets what its external steps did: their compensation steps
   * run one at a time, in reverse order of completion. Returns true while compensation goes on
   * (or has just started); emits the failure when everything is offset.
   */
  protected async compensateOrFail(live: LiveRun, reason: string): Promise<boolean> {
    const m = live.model;
    if (m.compensation === null) {
      const order = [...m.steps.values()]
        .filter((s) => {
          const step = live.index.steps.get(s.id);
          return step?.effect === 'external' && step.compensation !== undefined && s.outcome === 'succeeded';
        })
        .sort((a, b) => b.settledSeq - a.settledSeq)
        .map((s) => s.id);
      if (order.length === 0) {
        this.emit(live, 'run_state_changed', { state: 'failed' }, { reason });
        return true;
      }
      this.emit(live, 'compensation_started', { order }, { reason: `the run fails (${reason}): offsetting ${order.join(', ')} in reverse order of completion` });
    }
    const c = m.compensation;
    if (c === null) return false;
    const next = c.pending[0];
    if (next === undefined) {
      this.emit(live, 'run_state_changed', { state: 'failed' }, { reason: `${reason}; compensated ${c.done.join(', ')}` });
      return true;
    }
    const by = live.index.steps.get(next)?.compensation as string;
    const comp = m.steps.get(by) as StepRuntime;
    if (comp.compensates === next && comp.state !== 'succeeded') return false; // running, or needs a person
    this.emit(live, 'step_activated', { compensates: next }, { step: by, activation: comp.activation + 1, reason: `compensates "${next}"` });
    await this.startAttempt(live, by);
    return true;
  }

  protected async checkReadiness(live: LiveRun, stepId: string): Promise<void> {
    const s = live.model.steps.get(stepId);
    if (s === undefined) return;
    const r = readiness(live.model, live.index, s);
    if (r.kind === 'activate') this.activate(live, stepId, r.reason);
    else if (r.kind === 'skip') await this.settle(live, s, 'skipped', r.reason);
    else if (r.kind === 'fail') {
      // A join that can no longer be met: an activation that fails at once, routed like any failure.
      this.emit(live, 'step_activated', {}, { step: stepId, activation: s.activation + 1, reason: r.reason });
      await this.settle(live, s, 'failed', r.reason);
    }
  }


  /** What expressions read; `activation`, the evaluating step's, is what `$activation` gives. */
  protected context(live: LiveRun, extra: Record<string, unknown> = {}, activation?: number): RunContext {
    const m = live.model;
    if (live.runInfo?.inputRevision !== m.inputRevision) {
      live.runInfo = { id: m.runId, workflowId: m.workflow.id, version: m.workflow.version, inputRevision: m.inputRevision, startedAt: new Date(m.createdAt).toISOString() };
    }
    return { input: m.input, steps: m.view, run: live.runInfo, ...extra, ...(activation === undefined ? {} : { [ACTIVATION]: activation }) };
  }

  protected async startAttempt(live: LiveRun, stepId: string): Promise<void> {
    const m = live.model;
    const s = m.steps.get(stepId) as StepRuntime;
    const step = live.index.steps.get(stepId) as Step;
    const gated = !INLINE_KINDS.has(step.kind) && step.kind !== 'wait' && step.kind !== 'human' && step.kind !== 'event';
    if (gated && this.draining) return; // the store is being given back: the next engine starts it
    const gate = gated ? this.poolOf(live, step) : undefined;
    if (gate && gate.inUse >= gate.limit) {
      // No slot in the step's resource pool: it waits (still ready or retry_wait) for one to free.
      if (!gate.queue.some((q) => q.live === live && q.stepId === stepId)) gate.queue.push({ live, stepId });
      return;
    }
    const number = (currentAttempt(s)?.number ?? 0) + 1;
    const effect = step.effect ?? 'none';
    const ctx = this.context(live, {}, s.activation);
    let input: unknown;
    let idempotencyKey: string | undefined;
    try {
      input = s.inputOverride !== null ? s.inputOverride.value : step.input === undefined ? m.input : await evaluate(step.input, ctx);
      if (number === 1 && step.idempotencyKey !== undefined) idempotencyKey = String(await evaluate(step.idempotencyKey, ctx));
      else idempotencyKey = currentAttempt(s)?.idempotencyKey; // one key per activation, given to every attempt;
    } catch (e) {
      this.emit(live, 'attempt_started', { inputHash: '-', input: null, variant: null, effect }, { step: stepId, activation: s.activation, attempt: number });
      await this.onResult(live, { stepId, activation: s.activation, attempt: number, result: { outcome: 'failed', code: 'input_error', message: (e as Error).message, retryable: false } });
      return;
    }
    // A compensation's evidence covers the evidence it offsets (run and id): it is reused only
    // where that same booking is reused, never for a new one with the same input.
    const offset = s.compensates === null ? null : m.steps.get(s.compensates)?.evidence ?? null;
    const inputHash = coverageHash(step, input, m.view, s.activation, offset === null ? null : { run: offset.fromRun, evidence: offset.id });

    if (number === 1 && (await this.reuseOrCarry(live, s, step, inputHash, input))) return;

    // A rerun after an engine restart is not a retry: it gets the config its interrupted attempt had.
    const counted = countedAttempts(s) + 1;
    const { config, variant } = configForAttempt((step as { config?: Record<string, unknown> }).config ?? {}, step.retry, counted);
    this.emit(live, 'attempt_started', {
      inputHash,
      input,
      variant,
      effect,
      ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
      ...(step.timeoutMs === undefined ? {} : { timeoutMs: step.timeoutMs }),
    }, { step: stepId, activation: s.activation, attempt: number, ...(variant === null ? {} : { reason: `retry variant ${variant + 1}` }) });

    const done = (result: AttemptResult): Promise<void> => this.onResult(live, { stepId, activation: s.activation, attempt: number, result });
    if (INLINE_KINDS.has(step.kind)) {
      await done(await this.runInline(live, step, input, config));
      return;
    }
    if (step.kind === 'wait') {
      const w = config as { durationMs?: number; until?: string };
      let dueAt: number;
      try {
        dueAt = w.durationMs !== undefined ? this.o.clock.now() + w.durationMs : Date.parse(String(await evaluate(w.until ?? '', ctx)));
      } catch (e) {
        await done({ outcome: 'failed', code: 'input_error', message: (e as Error).message, retryable: false });
        return;
      }
      if (Number.isNaN(dueAt)) {
        await done({ outcome: 'failed', code: 'input_error', message: `"until" did not give a date`, retryable: false });
        return;
      }
      this.emit(live, 'timer_set', { dueAt }, { step: stepId, activation: s.activation, attempt: number, reason: `fires at ${new Date(dueAt).toISOString()}` });
      this.arm(live, stepId, dueAt);
      return;
    }
    if (step.kind === 'human' || step.kind === 'event') {
      await this.startWaiting(live, s, step, number, ctx);
      return;
    }
    if (step.kind === 'subworkflow' || step.kind === 'map') {
      await this.startChildren(live, s, step, number, input, ctx);
      return;
    }
    const executor = this.o.executors[step.kind];
    if (executor === undefined) {
      await done({ outcome: 'failed', code: 'unsupported_kind', message: `this engine cannot run "${step.kind}" steps yet`, retryable: false });
      return;
    }
    if (effect === 'external') this.needDurable = true;
    this.launches.push({ live, stepId, activation: s.activation, attempt: number, countedAttempt: counted, executor, input, config, step, idempotencyKey });
    if (gate) {
      gate.inUse++;
      live.holding.add(stepId);
    }
  }

  /**
   * Restart per prerequisite (revision-decision.ts): reuse evidence (or an unknown outcome) whose
   * coverage still matches; keep, or hold for a person, an effect whose input changed after it
   * happened. Returns true when the step must not start an attempt now.
   */
  protected async reuseOrCarry(live: LiveRun, s: StepRuntime, step: Step, inputHash: string, input: unknown): Promise<boolean> {
    const d = decideRevision(live.model, step, s, inputHash);
    const at = { step: s.id, activation: s.activation };
    switch (d.kind) {
      case 'run':
        return false;
      case 'reuse':
      case 'keep':
        await this.reuseEvidence(live, s, d.evidence, d.reason);
        return true;
      case 'carry':
        this.emit(live, 'outcome_carried', { outcome: 'unknown', fromActivation: d.unknown.activation, attempt: d.unknown.attempt }, { ...at, reason: d.reason });
        await this.settle(live, s, 'unknown', 'outcome of the same external effect is unknown');
        return true;
      case 'ask':
        this.emit(live, 'revision_held', { evidenceId: d.evidence.id, inputHash, input }, { ...at, reason: d.reason });
        return true;
    }
  }

  /** Settles the step with earlier evidence, now covering the current revision (reused, or kept). */
  protected async reuseEvidence(live: LiveRun, s: StepRuntime, ev: Evidence, reason: string): Promise<void> {
    const covers = { ...ev.covers, inputRevision: live.model.inputRevision };
    this.emit(live, 'evidence_reused', { evidenceId: ev.id, output: ev.output, covers, from: { runId: ev.fromRun, activation: ev.activation, attempt: ev.attempt } }, { step: s.id, activation: s.activation, reason });
    await this.settle(live, s, 'succeeded', `evidence ${ev.id} reused`, ev.id);
  }

  protected runInline(live: LiveRun, step: Step, input: unknown, config: Record<string, unknown>): Promise<AttemptResult> {
    const ctx = this.context(live, {}, live.model.steps.get(step.id)?.activation);
    return runInlineStep(step, input, config, ctx, live.index, live.model.edges, live.model.view);
  }

  protected launch(l: Launch): void {
    const controller = new AbortController();
    let cancelTimeout: (() => void) | undefined;
    let timedOut: AttemptResult | undefined;
    const key = l.stepId;
    const timeoutMs = l.step.timeoutMs;
    if (timeoutMs !== undefined) {
      cancelTimeout = this.o.clock.setTimer(timeoutMs, () => {
        if (!l.live.running.has(key)) return;
        timedOut = l.step.effect === 'external'
          ? { outcome: 'unknown', reason: `no reply within ${timeoutMs} ms: the reply was lost or late, so whether the effect happened is unknown` }
          : { outcome: 'failed', code: 'timeout', message: `no result within ${timeoutMs} ms`, retryable: true };
        controller.abort(new Error(`timed out after ${timeoutMs} ms`));
        // The executor stops its work and then settles; the attempt ends when it has, so a retry
        // never overlaps the attempt it replaces. An executor that does not settle is not waited on.
        const result = timedOut;
        const entry = l.live.running.get(key);
        if (entry) entry.cancelTimeout = this.o.clock.setTimer(ABORT_GRACE_MS, () => this.complete(l, result));
      });
    }
    l.live.running.set(key, { controller, cancelTimeout });
    let promise: Promise<AttemptResult>;
    try {
      promise = l.executor.execute({
        runId: l.live.model.runId,
        stepId: l.stepId,
        activation: l.activation,
        attempt: l.attempt,
        countedAttempt: l.countedAttempt,
        input: l.input,
        config: l.config,
        step: l.step,
        idempotencyKey: l.idempotencyKey,
        signal: controller.signal,
        workspaceDir: l.live.model.workspaceDir,
        expressions: {
          render: (template) => renderTemplate(template, this.context(l.live, {}, l.activation)),
          evaluate: (expression) => evaluate(expression, this.context(l.live, {}, l.activation)),
        },
      });
    } catch (e) {
      promise = Promise.resolve({ outcome: 'failed', code: 'executor_error', message: (e as Error).message, retryable: false });
    }
    // After a timeout, an executor that settles within the grace period knows best what happened
    // (a reply that came late, or a request that was never sent); only its "aborted" of a step
    // without external effect becomes the engine's `timeout`.
    const afterTimeout = (result: AttemptResult): AttemptResult =>
      timedOut === undefined || result.outcome === 'succeeded' || result.outcome === 'unknown' || l.step.effect === 'external'
        ? result
        : result.code === 'aborted' ? timedOut : result;
    promise.then(
      (result) => this.complete(l, afterTimeout(result)),
      (e: unknown) => this.complete(l, timedOut ?? { outcome: 'failed', code: 'executor_error', message: e instanceof Error ? e.message : String(e), retryable: false }),
    );
  }

  protected complete(l: Launch, result: AttemptResult): void {
    const r = l.live.running.get(l.stepId);
    if (r === undefined) return; // already completed (a timeout won the race)
    r.cancelTimeout?.();
    l.live.running.delete(l.stepId);

    l.live.inbox.push({ stepId: l.stepId, activation: l.activation, attempt: l.attempt, result });
    this.markDirty(l.live);
  }

  /** Cancels the step's pending timer (retry, deadline, wait), if any. */
  protected disarm(live: LiveRun, stepId: string): void {
    live.timers.get(stepId)?.();
    live.timers.delete(stepId);
  }

  protected arm(live: LiveRun, stepId: string, dueAt: number): void {
    live.timers.get(stepId)?.();
    live.timers.set(stepId, this.o.clock.setTimer(dueAt - this.o.clock.now(), () => {
      live.timers.delete(stepId);
      live.due.push(stepId);
      this.markDirty(live);
    }));
  }

  protected async onTimer(live: LiveRun, stepId: string): Promise<void> {
    const s = live.model.steps.get(stepId);
    if (s === undefined || isTerminal(live.model.state)) return;
    if (s.state === 'retry_wait') {
      await this.startAttempt(live, stepId);
    } else if (s.state === 'waiting') {
      const a = currentAttempt(s);
      if (a === undefined) return;
      const step = live.index.steps.get(stepId) as Step;
      if (step.kind === 'human' || step.kind === 'event') {
        await this.deadlinePassed(live, s, step, a);
        return;
      }
      this.emit(live, 'timer_fired', {}, { step: stepId, activation: a.activation, attempt: a.number });
      await this.onResult(live, { stepId, activation: a.activation, attempt: a.number, result: { outcome: 'succeeded', output: { firedAt: new Date(this.o.clock.now()).toISOString() } } });
    }
  }

  /**
   * Frees the pool slot of a step whose attempt has just ended, at the moment its end is logged, so
   * the log never shows more attempts of a resource at once than its limit; wakes the next waiter.
   */
  protected releaseSlot(live: LiveRun, step: Step): void {
    if (!live.holding.delete(step.id)) return;
    const pool = this.poolOf(live, step);
    if (pool === undefined) return;
    pool.inUse--;
    const next = pool.queue.shift();
    if (next === undefined) return;
    const s = next.live.model.steps.get(next.stepId);
    if (s?.state === 'ready') next.live.ready.push(next.stepId);
    else if (s?.state === 'retry_wait') next.live.due.push(next.stepId);
    this.markDirty(next.live);
  }

  /** The pool of a step's `resource`, when its workflow limits it (the first limit seen wins). */
  protected poolOf(live: LiveRun, step: Step): Pool | undefined {
    if (step.resource === undefined) return undefined;
    let pool = this.pools.get(step.resource);
    if (pool === undefined) {
      const limit = live.model.workflow.limits?.concurrency?.[step.resource];
      if (limit === undefined) return undefined;
      pool = { limit, inUse: 0, queue: [] };
      this.pools.set(step.resource, pool);
    }
    return pool;
  }


  /** Runs `act` inside the run's next tick (after checks made now); resolves once that tick's commit is written. */
  protected enqueue(live: LiveRun, act: () => Promise<void>): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.fatal !== undefined) {
        reject(this.fatal.error);
        return;
      }
      this.pendingActions.add(reject);
      const done = (): void => {
        this.pendingActions.delete(reject);
        resolve();
      };
      live.actions.push(() => act().then(
        () => void this.appliedActions.push(done),
        (e: unknown) => {
          this.pendingActions.delete(reject);
          reject(e);
        },
      ));
      this.markDirty(live);
    });
  }

  protected async onResult(live: LiveRun, c: Completion): Promise<void> {
    const m = live.model;
    const s = m.steps.get(c.stepId);
    const a = s?.attempts.find((x) => x.activation === c.activation && x.number === c.attempt);
    if (s === undefined || a === undefined || a.state !== 'running') return;
    const step = live.index.steps.get(c.stepId) as Step;
    this.releaseSlot(live, step);
    const at = { step: c.stepId, activation: c.activation, attempt: c.attempt };
    const r = c.result;
    const covers = { inputHash: a.inputHash, definitionVersion: m.workflow.version, inputRevision: m.inputRevision };
    const evidenceId = attemptId(c.stepId, { activation: c.activation, number: c.attempt });
    const meta = r.meta === undefined ? {} : { meta: r.meta };
    // Record how the attempt ended; then route it, unless the run has ended meanwhile (a cancel).
    let ended: { outcome: 'unknown'; reason: string } | { outcome: 'failed'; code: string; retryable: boolean } | { outcome: 'succeeded' };
    if (r.outcome === 'unknown') {
      this.emit(live, 'attempt_unknown', { error: { code: 'unknown', message: r.reason }, ...meta }, { ...at, reason: r.reason });
      ended = { outcome: 'unknown', reason: r.reason };
    } else if (r.outcome === 'failed') {
      this.emit(live, 'attempt_failed', {
        error: { code: r.code, message: r.message },
        retryable: r.retryable !== false,
        ...(r.output === undefined ? {} : { output: r.output, evidenceId, covers }),
        ...meta,
      }, { ...at, reason: r.message });
      ended = { outcome: 'failed', code: r.code, retryable: r.retryable !== false };
    } else {
      // Succeeded by the executor's account; the contract decides whether it counts.
      const failure = await this.contractFailure(live, step, r.output);
      if (failure) {
        this.emit(live, 'attempt_failed', { error: failure, retryable: true, output: r.output, evidenceId, covers, ...meta }, { ...at, reason: failure.message });
        ended = { outcome: 'failed', code: failure.code, retryable: true };
      } else {
        this.emit(live, 'attempt_succeeded', { output: r.output, evidenceId, covers, ...meta }, at);
        ended = { outcome: 'succeeded' };
      }
    }
    if (isTerminal(m.state)) this.settleAfterEnd(live, s, ended.outcome === 'failed' ? 'cancelled' : ended.outcome, ended.outcome === 'succeeded' ? evidenceId : undefined);
    else if (ended.outcome === 'unknown') await this.settle(live, s, 'unknown', ended.reason);
    else if (ended.outcome === 'failed') await this.afterFailure(live, s, step, ended.code, ended.retryable);
    else await this.settle(live, s, 'succeeded', `attempt ${evidenceId} succeeded`, evidenceId);
  }

  /** Why an output the executor reports as a success does not count: it breaks the output schema or the accept rule. */
  protected async contractFailure(live: LiveRun, step: Step, output: unknown): Promise<{ code: AttemptErrorCode; message: string } | undefined> {
    const violations = step.output === undefined ? undefined : checkAgainstSchema(step.output, output);
    if (violations !== undefined) return { code: 'invalid_output', message: `the output does not match the step's output schema: ${violations}` };
    if (step.accept === undefined) return undefined;
    try {
      const ok = await evaluate(step.accept, this.context(live, { output }, live.model.steps.get(step.id)?.activation));
      return ok === true ? undefined : { code: 'acceptance_not_met', message: `acceptance rule "${step.accept}" is not met` };
    } catch (e) {
      return { code: 'acceptance_not_met', message: `acceptance rule could not be evaluated: ${(e as Error).message}` };
    }
  }

  /**
   * An attempt that ends after its run has ended (a cancel aborts running attempts): its result is
   * recorded above, and the step settles with it, routing nothing. An external attempt that may
   * have had its effect stays `unknown`, so the record says what a person may need to check.
   */
  protected settleAfterEnd(live: LiveRun, s: StepRuntime, outcome: 'succeeded' | 'unknown' | 'cancelled', evidenceId?: string): void {
    this.emit(live, 'step_settled', { outcome, ...(evidenceId === undefined ? {} : { evidenceId }), edges: [] }, {
      step: s.id,
      activation: s.activation,
      reason: `the run had ended (${live.model.state}) when the attempt ended`,
    });
  }

  protected async afterFailure(live: LiveRun, s: StepRuntime, step: Step, code: string, retryable: boolean): Promise<void> {
    const counted = countedAttempts(s);
    const next = (currentAttempt(s)?.number ?? 0) + 1;
    const now = this.o.clock.now();
    if (code === 'interrupted') {
      this.emit(live, 'retry_scheduled', { nextAttempt: next, dueAt: now, delayMs: 0 }, { step: s.id, activation: s.activation, reason: 'the engine restarted during the attempt; running it again (not counted as a retry)' });
      live.due.push(s.id);
      return;
    }
    if (mayRetry(step.retry, counted, code, retryable)) {
      // A provider's retry-after (429, 503) is honoured when it asks for longer than the backoff.
      const asked = currentAttempt(s)?.retryAfterMs ?? 0;
      const delayMs = Math.max(backoffMs(step.retry, counted + 1, this.o.random), asked);
      this.emit(live, 'retry_scheduled', { nextAttempt: next, dueAt: now + delayMs, delayMs }, {
        step: s.id,
        activation: s.activation,
        reason: `${code}: attempt ${counted + 1} of ${step.retry?.maxAttempts ?? 1} in ${delayMs} ms`,
      });
      this.arm(live, s.id, now + delayMs);
      return;
    }
    const why = !retryable ? `${code} is not retryable` : step.retry?.nonRetryable?.includes(code) ? `${code} is listed in nonRetryable` : `${counted} of ${step.retry?.maxAttempts ?? 1} attempts used`;
    await this.settle(live, s, code === 'timeout' ? 'timed_out' : 'failed', why);
  }

  protected async settle(live: LiveRun, s: StepRuntime, outcome: SettleOutcome, reason: string, evidenceId?: string): Promise<void> {
    const m = live.model;
    const step = live.index.steps.get(s.id) as Step;
    let edges = await decideEdges(m, live.index, s.id, outcome, this.context(live, { output: s.output }, s.activation));
    const handled = edges.some((e) => e.taken);
    const quiet = outcome === 'succeeded' || outcome === 'skipped' || outcome === 'cancelled';
    // An outcome nobody handles and a person must look at: leave the outgoing edges undecided, so
    // what follows stays blocked (not skipped) until the person acts.
    // A failed branch that only feeds joins is handled by their policy (a join that ignores failed
    // branches goes on without it; one that does not fails and routes its own failure), and an
    // optional step's failure is handled by being optional. A step's own `onExhausted: escalate`
    // comes first: the person is asked at the step that failed, and the join waits for it.
    const outs = live.index.out.get(s.id) ?? [];
    const absorbed = !quiet && !handled && outcome !== 'unknown' && step.onExhausted !== 'escalate' && (step.optional === true || (outs.length > 0 && outs.every((e) => live.index.steps.get(e.edge.to)?.kind === 'join')));
    const escalate = !quiet && !handled && !absorbed && (outcome === 'unknown' || step.onExhausted === 'escalate');
    if (escalate) edges = [];
    this.emit(live, 'step_settled', { outcome, ...(evidenceId === undefined ? {} : { evidenceId }), edges }, { step: s.id, activation: s.activation, reason });
    for (const e of edges) {
      const to = live.index.edges.get(e.id)?.edge.to;
      if (to !== undefined) live.dirty.add(to);
    }
    if (step.kind === 'end' && outcome === 'succeeded' && step.config?.status === 'failed' && m.failing === null) {
      await this.startFailing(live, s.id, `reached end step "${s.id}" (status failed)`);
      return;
    }
    if (s.compensates !== null) {
      if (outcome === 'succeeded') {
        this.emit(live, 'step_compensated', { compensatedBy: s.id }, { step: s.compensates, reason: `"${s.id}" offset it` });
      } else {
        this.emit(live, 'step_escalated', { outcome }, { step: s.id, activation: s.activation, reason: `compensation of "${s.compensates}" ${outcome}: a person must offset it (the run is not marked failed until then)` });
      }
      return;
    }
    if (quiet || handled) return;
    if (absorbed) return;
    if (escalate) {
      this.emit(live, 'step_escalated', { outcome }, {
        step: s.id,
        activation: s.activation,
        reason: outcome === 'unknown'
          ? `the outcome of "${s.id}" is unknown and no edge handles it: a person must find out whether it took effect`
          : `"${s.id}" ${outcome} and onExhausted is escalate`,
      });
      return;
    }
    await this.startFailing(live, s.id, `step "${s.id}" ${outcome} (${reason}) and no edge or escalation handles it`);
  }

  /** The run is to fail: nothing new starts, what waits is cancelled, running attempts finish and are recorded. */
  protected async startFailing(live: LiveRun, stepId: string, reason: string): Promise<void> {
    const m = live.model;
    this.emit(live, 'run_failing', { stepId }, { reason });
    for (const other of m.steps.values()) {
      if (other.state === 'retry_wait' || other.state === 'waiting') {
        this.disarm(live, other.id);
        await this.settle(live, other, 'cancelled', 'the run is failing');
      }
    }
  }

  // Implemented by the layers above: people and events (engine-people.ts), child runs
  // (engine-children.ts), operator control (engine.ts).
  protected abstract startWaiting(live: LiveRun, s: StepRuntime, step: Step, attempt: number, ctx: Record<string, unknown>): Promise<void>;
  protected abstract deadlinePassed(live: LiveRun, s: StepRuntime, step: Step, a: AttemptRecord): Promise<void>;
  protected abstract startChildren(live: LiveRun, s: StepRuntime, step: Step, attempt: number, input: unknown, ctx: Record<string, unknown>): Promise<void>;
  protected abstract notifyParent(child: LiveRun): Promise<void>;
  protected abstract catchUpChildren(live: LiveRun, stepId: string): Promise<void>;
}


/** Attempts of the step's current activation that count against its retry policy (a rerun after an engine restart does not). */
export function countedAttempts(s: StepRuntime): number {
  return s.attempts.filter((a) => a.activation === s.activation && a.error?.code !== 'interrupted').length;
}

