// Runs coming into the scheduler: created (or queued for a run slot, or for a daily budget: then
// refused or started when the next day begins), dequeued when a slot frees, revised with a new
// input, and recovered from the log after a stop.
import type { StepKind } from '../../shared/definition/names.ts';
import { runActionRefusal } from '../../shared/run/action-rules.ts';
import { StoreError } from '../store/store-error.ts';
import { newRunId } from '../time/clock.ts';
import type { LiveRun, StartRunOptions } from './live-run.ts';
import { repairMissingRuns } from './projections.ts';
import { planRecovery } from './recovery-plan.ts';
import type { RunPort } from './run-port.ts';
import { admitRun, countRunningRuns, nextQueuedRun } from './run-slots.ts';
import { admitWithinBudget, hasDailyBudget, type BudgetAdmission } from './budget-admission.ts';
import type { Budgets } from '../../shared/policy/policy-schema.ts';
import { DAY_MS } from '../store/day-spend.ts';
import { newRunModel, type RunModel } from '../../shared/run/run-model.ts';
import { isTerminal } from '../../shared/run/run-status.ts';
import type { StepHandler } from './step-handler.ts';
import { rearmEscalationTimers } from './policy-escalation.ts';

/** Runs whose logs recover() reads in one query. */
const RECOVERY_BATCH = 500;

/** The key of a run's budget timer among its step timers (no step id starts with "$"). */
const BUDGET_TIMER = '$budget';

/** What the lifecycle needs of the core beyond RunPort. */
export interface LifecycleHost {
  /** Wraps a model as a live run; holds it in memory unless it has finished. */
  adopt(model: RunModel): LiveRun;
  holds(runId: string): boolean;
  handlerFor(kind: StepKind): StepHandler | undefined;
  activateEntries(live: LiveRun, reason: string): void;
  /** Runs again the read of a revalidate check the engine stopped during. */
  recheck(live: LiveRun, stepId: string): void;
}

export class RunLifecycle {
  constructor(private readonly port: RunPort, private readonly host: LifecycleHost) {}

  /** Creates a run and schedules it; returns its id. The definition must be saved already. */
  startRun(opts: StartRunOptions): string {
    const { port } = this;
    const now = port.clock.now();
    // A child run belongs to its parent's work, which was admitted already.
    const admission = opts.parent === undefined ? this.budgetAdmission(opts.policy?.rules.budgets, opts.workflow.id) : { kind: 'start' as const };
    if (admission.kind === 'refuse') throw new StoreError('refused', `run of "${opts.workflow.id}" refused: ${admission.reason}`);
    const runId = newRunId(now, port.random);
    port.store.newRun(runId);
    const live = this.host.adopt(newRunModel(runId, opts.workflow));
    port.emit(live, 'run_created', {
      ...(opts.parent === undefined ? {} : { parent: opts.parent }),
      ...(opts.priority === undefined ? {} : { priority: opts.priority }),
      ...(opts.key === undefined ? {} : { key: opts.key }),
      workflowId: opts.workflow.id,
      version: opts.workflow.version,
      definitionHash: opts.definitionHash,
      workspaceDir: opts.workspaceDir,
      input: opts.input,
      ...(opts.forkOf ? { forkOf: opts.forkOf } : {}),
      ...(opts.debug === undefined ? {} : { debug: opts.debug }),
      ...(opts.policy === undefined ? {} : { policy: opts.policy }),
      ...(opts.budget === undefined ? {} : { budget: opts.budget }),
    }, opts.forkOf ? { reason: `fork of ${opts.forkOf.runId} from step "${opts.forkOf.fromStep}"` } : {});
    for (const ev of opts.importEvidence ?? []) {
      port.emit(live, 'evidence_imported', { evidenceId: ev.id, stepId: ev.stepId, output: ev.output, covers: ev.covers, from: { runId: ev.fromRun, activation: ev.activation, attempt: ev.attempt }, ...(ev.offsetBy === undefined ? {} : { offsetBy: ev.offsetBy }) }, { step: ev.stepId });
    }
    for (const u of opts.importUnknowns ?? []) {
      port.emit(live, 'unknown_imported', { stepId: u.stepId, inputHash: u.inputHash, from: { runId: u.fromRun, activation: u.activation, attempt: u.attempt } }, { step: u.stepId });
    }
    const max = opts.workflow.limits?.maxParallelRuns;
    const admit = admitRun(opts.workflow.id, max, max === undefined ? 0 : this.runningCount(opts.workflow.id, runId));
    if (admission.kind === 'wait') this.waitForBudget(live, admission);
    else if (admit.kind === 'queue') {
      port.emit(live, 'run_queued', { priority: opts.priority ?? 0 }, { reason: admit.reason });
      port.emit(live, 'run_state_changed', { state: 'waiting' }, { reason: 'queued for a free run slot (limits.maxParallelRuns)' });
    } else this.host.activateEntries(live, 'entry step');
    port.markDirty(live);
    return runId;
  }

  /** Whether a run may start under the daily budgets, given what was spent today (as of the last commit). */
  private budgetAdmission(budgets: Budgets | undefined, workflowId: string): BudgetAdmission {
    if (!hasDailyBudget(budgets)) return { kind: 'start' };
    const now = this.port.clock.now();
    return admitWithinBudget(budgets, workflowId, this.port.store.spend.on(Math.floor(now / DAY_MS), workflowId), now);
  }

  /** The run waits (queued, state waiting) for the next day's budget; a timer brings it back then. */
  private waitForBudget(live: LiveRun, wait: { reason: string; until: number }): void {
    this.port.emit(live, 'run_queued', { priority: live.model.priority, for: 'budget', until: wait.until }, { reason: wait.reason });
    if (live.model.state !== 'waiting') this.port.emit(live, 'run_state_changed', { state: 'waiting' }, { reason: wait.reason });
    this.armBudget(live);
  }

  /** Sets the run's budget timer for the time it waits until (fired at once when that has passed: after a restart). */
  private armBudget(live: LiveRun): void {
    const wait = live.model.budgetWait;
    if (wait === null) return;
    live.timers.get(BUDGET_TIMER)?.();
    live.timers.set(BUDGET_TIMER, this.port.clock.setTimer(wait.until - this.port.clock.now(), () => {
      live.timers.delete(BUDGET_TIMER);
      if (isTerminal(live.model.state)) return;
      // A store failure has stopped the engine (it said so): the next engine re-arms the timer.
      this.port.enqueue(live, () => Promise.resolve(this.budgetDayBegins(live))).catch(() => undefined);
    }));
  }

  /**
   * A new day began for a run waiting for budget: it starts if the day's budgets have room (or
   * queues for a run slot under limits.maxParallelRuns), else it waits for the next day again.
   */
  private budgetDayBegins(live: LiveRun): void {
    const { port } = this;
    const m = live.model;
    if (m.budgetWait === null || isTerminal(m.state)) return;
    const budgets = m.policy?.rules.budgets;
    const admission = this.budgetAdmission(budgets === undefined ? undefined : { ...budgets, whenOver: 'wait' }, m.workflow.id);
    if (admission.kind === 'wait') {
      this.waitForBudget(live, admission);
      return;
    }
    const max = m.workflow.limits?.maxParallelRuns;
    const admit = admitRun(m.workflow.id, max, max === undefined ? 0 : this.runningCount(m.workflow.id, m.runId));
    if (admit.kind === 'queue') {
      port.emit(live, 'run_queued', { priority: m.priority, for: 'slot' }, { reason: `a new day (UTC) began and its budget has room; ${admit.reason}` });
      return;
    }
    port.emit(live, 'run_dequeued', {}, { reason: 'a new day (UTC) began and its budget has room' });
    port.emit(live, 'run_state_changed', { state: 'running' }, { reason: 'dequeued' });
    this.host.activateEntries(live, 'entry step');
    port.markDirty(live);
  }

  /** Runs of a workflow that are running now: this engine's, and those the store lists. */
  private runningCount(workflowId: string, except: string): number {
    return countRunningRuns(this.port.store.runningRunIds(workflowId), this.liveModels(), workflowId, except);
  }

  private liveModels(): RunModel[] {
    return Array.from(this.port.liveRuns(), (l) => l.model);
  }

  /** When a run slot frees, the queued run with the highest priority (then the oldest) starts. */
  dequeue(workflowId: string): void {
    const first = nextQueuedRun(this.port.liveRuns(), workflowId, (l) => l.model);
    if (first === undefined) return;
    const m = first.model;
    if (this.runningCount(workflowId, m.runId) >= (m.workflow.limits?.maxParallelRuns ?? Infinity)) return;
    this.port.emit(first, 'run_dequeued', {}, { reason: 'a run slot is free' });
    this.port.emit(first, 'run_state_changed', { state: 'running' }, { reason: 'dequeued' });
    this.host.activateEntries(first, 'entry step');
    this.port.markDirty(first);
  }

  /** Adds an input revision: the run passes over its graph again, reusing evidence whose coverage still matches. */
  revise(runId: string, input: unknown): number {
    const live = this.port.load(runId);
    const refusal = runActionRefusal(live.model, 'revise');
    if (refusal !== undefined) throw new StoreError(refusal.code, refusal.message);
    const revision = live.model.inputRevision + 1;
    for (const cancel of live.timers.values()) cancel();
    live.timers.clear();
    live.dues.clear();
    live.due = [];
    live.ready = [];
    this.port.emit(live, 'run_input_revised', { inputRevision: revision, input }, { reason: `input revision ${revision}` });
    if (live.model.state !== 'running') this.port.emit(live, 'run_state_changed', { state: 'running' }, { reason: `input revised to revision ${revision}` });
    this.host.activateEntries(live, `input revision ${revision}`);
    this.port.markDirty(live);
    return revision;
  }

  /** Continues every unfinished run of the store. Returns how many runs and interrupted attempts. */
  recover(): { runs: number; interrupted: number } {
    // A run the log has and `runs` lacks would never be listed, resumed or inspected: its row is
    // rebuilt first, so it is recovered below like any other.
    repairMissingRuns(this.port.store);
    let interrupted = 0;
    let runs = 0;
    const queuedWorkflows = new Set<string>();
    const ids = this.port.store.unfinishedRunIds();
    // The logs are read RECOVERY_BATCH runs per query (Store.readRunLogs): a query per run cost a
    // resume of 1,000 runs as much as folding them, and a batch bounds the logs held at once.
    for (let k = 0; k < ids.length; k += RECOVERY_BATCH) {
      const batch = ids.slice(k, k + RECOVERY_BATCH).filter((id) => !this.host.holds(id));
      const logs = this.port.store.readRunLogs(batch);
      for (const id of batch) {
        if (this.host.holds(id)) continue;
        let live: LiveRun;
        try {
          live = this.port.load(id, logs.get(id));
        } catch (e) {
          // Sharing a PostgreSQL store: another live engine drives this run (docs/scale-out.md).
          if (e instanceof StoreError && e.code === 'locked') continue;
          throw e;
        }
        // An engine starts on the store: what the run's waiting steps decided on may have changed while none ran.
        for (const s of live.model.steps.values()) if (s.state === 'waiting') live.restartedWaits.set(s.id, s.activation);
        runs++;
        interrupted += live.inbox.length;
        if (live.model.queued) queuedWorkflows.add(live.model.workflow.id);
      }
    }
    for (const w of queuedWorkflows) this.dequeue(w);
    return { runs, interrupted };
  }

  /** After a load: interrupted attempts become completions, timers are re-armed, work is queued. */
  recoverLive(live: LiveRun): void {
    if (isTerminal(live.model.state)) return;
    const plan = planRecovery(live.model, live.index);
    live.inbox.push(...plan.interrupted);
    live.ready.push(...plan.ready);
    for (const id of plan.dirty) live.dirty.add(id);
    for (const id of plan.resume) {
      // A child may have ended while no engine listened, a map may have items to start, and an
      // event may have been stored for a waiting step by a send that stopped before delivering it.
      const kind = live.index.steps.get(id)?.kind;
      const handler = kind === undefined ? undefined : this.host.handlerFor(kind);
      if (handler?.resume !== undefined) live.actions.push(() => handler.resume?.(live, id) ?? Promise.resolve());
    }
    for (const id of plan.rechecks) live.actions.push(() => Promise.resolve(this.host.recheck(live, id)));
    // Overdue timers fire at once, in the order they were due.
    const now = this.port.clock.now();
    for (const t of plan.timers) {
      if (t.dueAt <= now) live.due.push(t.stepId);
      else this.port.arm(live, t.stepId, t.dueAt);
    }
    rearmEscalationTimers(this.port, live);
    // Only a stop that cut attempts short is an event; re-arming timers changes nothing.
    const interrupted = plan.interrupted.length;
    if (interrupted > 0) this.port.emit(live, 'engine_resumed', { interrupted }, { reason: `${interrupted} attempt(s) were interrupted by a stop` });
    // A run waiting for budget waits on the clock too: its day may have begun while no engine ran.
    this.armBudget(live);
    this.port.markDirty(live);
  }
}
