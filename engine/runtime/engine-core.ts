// The scheduler core: the tick loop, emit, launch and timers. It folds every change into the run
// model through an event (append + apply), commits each tick's events in one transaction before
// acting on them (starting executors, setting timers), and fsyncs that commit when it records the
// start of an external attempt. What to do is decided elsewhere: pure decision modules
// (attempt-plan, evidence-reuse, failure-policy, settle-decision, compensation-plan, run-slots,
// recovery-plan), applied by the attempt runner and the step router; step kinds that wait on
// something other than an executor are run by handlers (step-handler.ts) the engine registers.
// Over 400 lines: the core is the one implementation of RunPort (emit, context, artifacts, timers,
// launch, the tick); what it decides lives in the modules named above, each in its own file.
import { StoreError } from '../store/store-error.ts';
import { STEP_KINDS, type StepKind, type RunState } from '../../shared/definition/names.ts';
import { isHandled, type HandlerKind } from '../../shared/definition/step-kinds.ts';
import { widenEvent, type EventData, type EventType, type RunEvent, type SettleOutcome } from '../../shared/events/run-event.ts';
import type { AttemptResult } from '../executors/executor.ts';
import type { Store } from '../store/store.ts';
import type { Clock, Random } from '../time/clock.ts';
import type { RunContext } from './expressions.ts';
import { runContext, type ContextReads } from './run-context.ts';
import { MemoryArtifactStore, type ArtifactStore } from '../artifacts/artifact-store.ts';
import { DEFAULT_ARTIFACT_THRESHOLD } from '../artifacts/externalise.ts';
import { launchAttempt } from './attempt-launch.ts';
import { ActionQueue } from './action-queue.ts';
import { AttemptRunner } from './attempt-runner.ts';
import { foldStoredRun } from './fold-run.ts';
import { newLiveRun, type Completion, type EngineOptions, type Launch, type LiveRun, type StartRunOptions } from './live-run.ts';
import { stopEscalations } from './policy-escalation.ts';
import { noteSpend } from './run-spend.ts';
import { RunLifecycle } from './run-lifecycle.ts';
import type { EventExtra, RunPort } from './run-port.ts';
import { RunProjector } from './run-projection.ts';
import { workflowsToDequeue } from './run-slots.ts';
import { releaseWake, type ReleasedRun } from './run-release.ts';
import { applyEvent } from '../../shared/run/apply-event.ts';
import { type Evidence, type RunModel, type StepRuntime } from '../../shared/run/run-model.ts';
import { isRunSettled } from './run-settled.ts';
import { isQuiet, isTerminal } from '../../shared/run/run-status.ts';
import { isFinishedRunState } from '../../shared/definition/names.ts';
import type { RunEndListener, StepHandler } from './step-handler.ts';
import { StepRouter, type Router } from './step-router.ts';

/** Parts of the scheduler that can be given in place of the usual ones (tests use this). */
export interface EngineParts {
  router?: (port: RunPort, attempts: AttemptRunner) => Router;
  /** Hears of each run model the core starts to drive (a test compares it with the fold of the stored log). */
  onLive?: (model: RunModel) => void;
}

export class EngineCore implements RunPort {
  private readonly runs = new Map<string, LiveRun>();
  private readonly dirtyRuns = new Set<string>();
  private readonly projector: RunProjector;
  private launches: Launch[] = [];
  private needDurable = false;
  private tickScheduled = false;
  private ticking = false;
  private closed = false;
  /** The store failure that stopped this engine for good (see fail()). */
  private fatal: { error: unknown } | undefined;
  private readonly actions = new ActionQueue();
  /** Callers of drain() waiting for the running attempts to end. */
  private drainWaiters: (() => void)[] = [];
  private readonly handlers = new Map<StepKind, StepHandler>();
  private runEnd: RunEndListener | undefined;
  readonly attempts: AttemptRunner;
  private readonly router: Router;
  private readonly lifecycle: RunLifecycle;

  constructor(private readonly o: EngineOptions, private readonly parts: EngineParts = {}) {
    this.attempts = new AttemptRunner(this, {
      executor: (kind) => this.o.executors[kind],
      handler: (kind) => this.handlers.get(kind),
      draining: () => this.draining,
      launch: (l, durable) => {
        if (durable) this.needDurable = true;
        this.launches.push(l);
      },
      ...(o.shared === undefined ? {} : { shared: o.shared }),
    }, o.prices);
    this.router = parts.router?.(this, this.attempts) ?? new StepRouter(this, this.attempts);
    this.projector = new RunProjector(o.store);
    this.lifecycle = new RunLifecycle(this, {
      adopt: (model) => this.live(model),
      holds: (runId) => this.runs.has(runId),
      handlerFor: (kind) => this.handlers.get(kind),
      activateEntries: (live, reason) => this.router.activateEntries(live, reason),
      recheck: (live, stepId) => this.attempts.resumeCheck(live, stepId),
    });
    // An intake engine writes runs' starts and operators' actions, and leaves every attempt to the workers.
    if (o.shared?.intake === true) this.draining = true;
  }

  /** Set by drain(): attempts that would start a process, request or child run wait for the next engine. */
  private draining = false;

  get store(): Store { return this.o.store; }
  get artifacts(): { store: ArtifactStore; threshold: number } {
    this.artifactsOf ??= { store: this.o.artifacts ?? new MemoryArtifactStore(), threshold: this.o.artifactThreshold ?? DEFAULT_ARTIFACT_THRESHOLD };
    return this.artifactsOf;
  }
  private artifactsOf: { store: ArtifactStore; threshold: number } | undefined;
  get clock(): Clock { return this.o.clock; }
  get random(): Random { return this.o.random; }

  /** Registers the handlers of the kinds routed to one (shared/definition/step-kinds.ts): one for each, or it does not compile. */
  handle(handlers: { readonly [K in HandlerKind]: StepHandler }): void {
    for (const kind of STEP_KINDS) {
      if (isHandled(kind)) this.handlers.set(kind, handlers[kind]);
    }
  }

  handlerFor(kind: StepKind): StepHandler | undefined {
    return this.handlers.get(kind);
  }

  /** Who hears when a run ends (its parent's step, through the child-run handler). */
  onRunEnd(listener: RunEndListener): void {
    this.runEnd = listener;
  }

  startRun(opts: StartRunOptions): string {
    return this.lifecycle.startRun(opts);
  }

  revise(runId: string, input: unknown): number {
    return this.lifecycle.revise(runId, input);
  }

  /** Loads (or returns) a run from the log; recovers attempts that a stopped engine left running. */
  load(runId: string, log?: readonly RunEvent[]): LiveRun {
    const existing = this.runs.get(runId);
    if (existing) return existing;
    if (this.o.store.isReplayRun(runId)) throw new StoreError('refused', `run ${runId} is a replay (weft replay): it is a record of a virtual run, and nothing can act on it; act on the run it replays`);
    // Sharing the store: an unfinished run becomes this engine's before its log is read (a finished one is only looked at).
    const stored = this.o.shared === undefined ? undefined : this.o.store.getRun(runId)?.state;
    if (stored !== undefined && !isFinishedRunState(stored)) this.acquire(runId);
    // A log read before the run was taken may miss the last commit of the engine that held it.
    const model = foldStoredRun(this.o.store, runId, this.o.shared === undefined ? log : undefined);
    this.o.store.knownLastSeq(runId, model.lastSeq);
    const live = this.live(model);
    this.lifecycle.recoverLive(live);
    return live;
  }

  get heldRuns(): number {
    return this.runs.size;
  }

  liveRuns(): Iterable<LiveRun> {
    return this.runs.values();
  }

  /** Continues every unfinished run of the store. Returns how many runs and interrupted attempts. */
  recover(): { runs: number; interrupted: number } {
    return this.lifecycle.recover();
  }

  /** Resolves when the run has ended or only waiting work (people, events, timers, escalations) remains. */
  settled(runId: string): Promise<RunState> {
    if (this.fatal !== undefined) return Promise.reject(this.fatal.error);
    const live = this.runs.get(runId);
    if (live === undefined) return Promise.resolve(this.o.store.getRun(runId)?.state ?? 'failed');
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (this.fatal !== undefined) reject(this.fatal.error);
        else if (isRunSettled(live, { dirty: this.dirtyRuns, runs: this.runs })) resolve(live.model.state);
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
      stopEscalations(live);
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
    this.actions.failAll(error);
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

  private wakeDrain(): void {
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
    this.projector.projectPending();
    this.o.store.flush(this.needDurable);
    this.needDurable = false;
    this.sendPokes();
  }

  /**
   * Takes a run from the shared store before loading it. One another live engine drives is
   * refused; that engine is poked after this engine's next commit, so it looks again at what the
   * run waits for (a child that ended here, an event stored here) rather than miss it.
   */
  private acquire(runId: string): void {
    try {
      this.o.shared?.acquire(runId);
    } catch (e) {
      if (e instanceof StoreError && e.code === 'locked') this.pokes.add(runId);
      throw e;
    }
  }

  private readonly pokes = new Set<string>();

  /** Sends the pokes owed (after a commit: what the poked engine should see is written). */
  sendPokes(): void {
    if (this.pokes.size === 0) return;
    const ids = [...this.pokes];
    this.pokes.clear();
    this.o.shared?.poke?.(ids);
  }

  /** Another engine asked: the run's waiting steps look again at what they wait for (handlers' resume, as after a load). */
  resumeWaits(runId: string): void {
    const live = this.runs.get(runId);
    if (live === undefined || this.fatal !== undefined) return;
    for (const s of live.model.steps.values()) {
      const kind = live.index.steps.get(s.id)?.kind;
      const handler = s.state === 'waiting' && kind !== undefined ? this.handlers.get(kind) : undefined;
      if (handler?.resume !== undefined) live.actions.push(() => handler.resume?.(live, s.id) ?? Promise.resolve());
    }
    this.markDirty(live);
  }

  emit<T extends EventType>(live: LiveRun, type: T, data: EventData<T>, extra: EventExtra = {}): RunEvent<T> {
    const e = this.o.store.append({ runId: live.model.runId, type, at: this.o.clock.now(), data, ...extra });
    const folded = widenEvent(e);
    applyEvent(live.model, folded);
    noteSpend(live, folded);
    if (extra.step !== undefined) live.touched.add(extra.step);
    this.projector.mark(live);
    return e;
  }

  context(live: LiveRun, extra: Record<string, unknown> = {}, activation?: number, reads?: ContextReads): RunContext {
    return runContext(live, extra, activation, this.artifacts.store, reads);
  }

  finish(live: LiveRun, c: Completion): Promise<void> {
    return this.attempts.finish(live, c);
  }

  settle(live: LiveRun, s: StepRuntime, outcome: SettleOutcome, reason: string, evidenceId?: string): Promise<void> {
    return this.router.settle(live, s, outcome, reason, evidenceId);
  }

  reuseEvidence(live: LiveRun, s: StepRuntime, ev: Evidence, reason: string): Promise<void> {
    return this.attempts.reuseEvidence(live, s, ev, reason);
  }

  private live(model: RunModel): LiveRun {
    const live = newLiveRun(model);
    this.parts.onLive?.(model);
    // A finished run loaded only to be looked at, or refused, is not kept: it joins the live runs
    // when something is queued on it (markDirty), and wake() lets it go again.
    if (!isTerminal(model.state)) this.runs.set(model.runId, live);
    return live;
  }

  markDirty(live: LiveRun): void {
    if (!this.runs.has(live.model.runId)) this.runs.set(live.model.runId, live);
    this.dirtyRuns.add(live.model.runId);
    this.kick();
  }

  private kick(): void {
    if (this.tickScheduled || this.closed) return;
    this.tickScheduled = true;
    setImmediate(() => void this.tick());
  }

  private async tick(): Promise<void> {
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
          await this.runEnd?.runEnded(live);
        }
      }
      if (this.closed) return; // closed while this tick ran: write nothing more
      // Runs that stopped running may free slots for queued runs of their workflow.
      for (const id of workflowsToDequeue(advanced.map((l) => l.model))) this.lifecycle.dequeue(id);
      this.projector.projectPending();
      this.o.store.flush(this.needDurable);
      this.needDurable = false;
      this.sendPokes();
      this.actions.committed();
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
    if (this.o.shared?.release !== undefined) this.release(this.o.shared.release, this.o.shared.intake === true);
    if (this.dirtyRuns.size > 0) this.kick();
    else this.wakeDrain();
  }

  /** One run's part of a tick: record results, apply actions, fire due timers, then route until nothing changes. */
  private async advance(live: LiveRun): Promise<void> {
    const m = live.model;
    const inbox = live.inbox;
    live.inbox = [];
    for (const c of inbox) await this.attempts.finish(live, c);
    const actions = live.actions;
    live.actions = [];
    for (const act of actions) await act();
    // Paused (or queued): results are recorded and routed and steps become ready, but no attempt
    // starts and timers wait until the run is resumed.
    const held = m.state === 'paused' || m.queued;
    if (!held) {
      const due = live.due;
      live.due = [];
      for (const stepId of due) await this.attempts.timerDue(live, stepId);
    }
    // Route and start, then decide the run's state, until a pass writes nothing. A pass can settle
    // steps inside the tick (an inline step, reused evidence), a compensation among them, and then
    // no executor or timer will bring the run back: only another pass acts on what that settled.
    let seen: number;
    do {
      seen = m.lastSeq;
      await this.router.route(live, held);
      // A breakpoint may have paused the run during the route: its state stays paused.
      if (isTerminal(m.state) || held || m.state === 'paused') return;
      await this.router.decideRunState(live);
    } while (m.lastSeq !== seen && !isTerminal(m.state));
    if (m.state === 'running' && isQuiet(m)) {
      // Nothing is ready, running or retrying, so nothing will tick this run again: say so rather
      // than leave it running forever (settled() would never resolve; the CLI would exit silently).
      this.emit(live, 'run_state_changed', { state: 'needs_attention' }, {
        reason: 'no step is ready, running or waiting, yet the run has not ended (an engine defect: report it with the output of weft events); cancel the run, or retry or skip a step',
      });
    }
  }

  private wake(live: LiveRun): void {
    const waiters = live.waiters.splice(0);
    for (const w of waiters) w();
    // A parent waiting on this child may now be settled (or not): its waiters look again.
    const parent = live.model.parent === undefined ? undefined : this.runs.get(live.model.parent.runId);
    if (parent !== undefined && parent !== live) this.wake(parent);
    // A finished run escalates nothing more, and leaves memory once nothing of it is running or waiting to be recorded.
    if (isTerminal(live.model.state)) stopEscalations(live);
    if (isTerminal(live.model.state) && live.running.size === 0 && live.inbox.length === 0 && live.waiters.length === 0) this.runs.delete(live.model.runId);
  }

  /** Runs `act` inside the run's next tick (after checks made now); resolves once that tick's commit is written. */
  enqueue(live: LiveRun, act: () => Promise<void>): Promise<void> {
    if (this.fatal !== undefined) return Promise.reject(this.fatal.error);
    const applied = this.actions.enqueue(live, act);
    this.markDirty(live);
    return applied;
  }

  disarm(live: LiveRun, stepId: string): void {
    live.timers.get(stepId)?.();
    live.timers.delete(stepId);
    live.dues.delete(stepId);
  }

  arm(live: LiveRun, stepId: string, dueAt: number): void {
    live.timers.get(stepId)?.();
    live.dues.set(stepId, dueAt);
    live.timers.set(stepId, this.o.clock.setTimer(dueAt - this.o.clock.now(), () => {
      live.timers.delete(stepId);
      live.dues.delete(stepId);
      live.due.push(stepId);
      this.markDirty(live);
    }));
  }

  /** Runs given back to the shared store (run-release.ts) leave this engine: another takes them up when due. */
  private release(give: (runs: readonly ReleasedRun[]) => void, intake: boolean): void {
    const now = this.o.clock.now();
    const released: ReleasedRun[] = [];
    for (const live of this.runs.values()) {
      if (this.dirtyRuns.has(live.model.runId) || isTerminal(live.model.state)) continue;
      const wakeAt = releaseWake(live, now, { intake });
      if (wakeAt !== undefined) released.push({ runId: live.model.runId, wakeAt });
    }
    if (released.length === 0) return;
    for (const { runId } of released) {
      const live = this.runs.get(runId) as LiveRun;
      for (const cancel of live.timers.values()) cancel();
      stopEscalations(live);
      this.runs.delete(runId);
    }
    give(released);
  }

  /** Starts an executor attempt whose start is committed; its result comes back through the inbox. */
  private launch(l: Launch): void {
    if (this.o.shared !== undefined && !this.o.shared.mayLaunch()) {
      // The heartbeat lapsed: another worker may hold this run now and will record the attempt as interrupted.
      this.fail(new StoreError('lease-lost', `this engine's lease lapsed (no heartbeat within its ttl) before step "${l.stepId}" of run ${l.live.model.runId} started: it starts nothing more, and its runs pass to the other workers`));
      return;
    }
    launchAttempt(l, {
      clock: this.o.clock,
      context: (activation) => this.context(l.live, {}, activation, { sensitive: l.step.readsSensitive === true }),
      complete: (result) => this.complete(l, result),
    });
  }

  private complete(l: Launch, result: AttemptResult): void {
    const r = l.live.running.get(l.stepId);
    if (r === undefined) return; // already completed (a timeout won the race)
    r.cancelTimeout?.();
    l.live.running.delete(l.stepId);
    l.live.inbox.push({ stepId: l.stepId, activation: l.activation, attempt: l.attempt, result });
    this.markDirty(l.live);
  }
}
