// Runs coming into the scheduler: created (or queued for a run slot), dequeued when a slot frees,
// revised with a new input, and recovered from the log after a stop.
import type { StepKind } from '../../shared/definition/names.ts';
import { runActionRefusal } from '../../shared/run/action-rules.ts';
import { StoreError } from '../store/store-error.ts';
import { newRunId } from '../time/clock.ts';
import type { LiveRun, StartRunOptions } from './live-run.ts';
import { repairMissingRuns } from './projections.ts';
import { planRecovery } from './recovery-plan.ts';
import type { RunPort } from './run-port.ts';
import { admitRun, countRunningRuns, nextQueuedRun } from './run-slots.ts';
import { newRunModel, type RunModel } from '../../shared/run/run-model.ts';
import { isTerminal } from '../../shared/run/run-status.ts';
import type { StepHandler } from './step-handler.ts';

/** Runs whose logs recover() reads in one query. */
const RECOVERY_BATCH = 500;

/** What the lifecycle needs of the core beyond RunPort. */
export interface LifecycleHost {
  /** Wraps a model as a live run; holds it in memory unless it has finished. */
  adopt(model: RunModel): LiveRun;
  holds(runId: string): boolean;
  handlerFor(kind: StepKind): StepHandler | undefined;
  activateEntries(live: LiveRun, reason: string): void;
}

export class RunLifecycle {
  constructor(private readonly port: RunPort, private readonly host: LifecycleHost) {}

  /** Creates a run and schedules it; returns its id. The definition must be saved already. */
  startRun(opts: StartRunOptions): string {
    const { port } = this;
    const now = port.clock.now();
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
    }, opts.forkOf ? { reason: `fork of ${opts.forkOf.runId} from step "${opts.forkOf.fromStep}"` } : {});
    for (const ev of opts.importEvidence ?? []) {
      port.emit(live, 'evidence_imported', { evidenceId: ev.id, stepId: ev.stepId, output: ev.output, covers: ev.covers, from: { runId: ev.fromRun, activation: ev.activation, attempt: ev.attempt }, ...(ev.offsetBy === undefined ? {} : { offsetBy: ev.offsetBy }) }, { step: ev.stepId });
    }
    for (const u of opts.importUnknowns ?? []) {
      port.emit(live, 'unknown_imported', { stepId: u.stepId, inputHash: u.inputHash, from: { runId: u.fromRun, activation: u.activation, attempt: u.attempt } }, { step: u.stepId });
    }
    const max = opts.workflow.limits?.maxParallelRuns;
    const admit = admitRun(opts.workflow.id, max, max === undefined ? 0 : this.runningCount(opts.workflow.id, runId));
    if (admit.kind === 'queue') {
      port.emit(live, 'run_queued', { priority: opts.priority ?? 0 }, { reason: admit.reason });
      port.emit(live, 'run_state_changed', { state: 'waiting' }, { reason: 'queued for a free run slot (limits.maxParallelRuns)' });
    } else this.host.activateEntries(live, 'entry step');
    port.markDirty(live);
    return runId;
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
        const live = this.port.load(id, logs.get(id));
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
    // Overdue timers fire at once, in the order they were due.
    const now = this.port.clock.now();
    for (const t of plan.timers) {
      if (t.dueAt <= now) live.due.push(t.stepId);
      else this.port.arm(live, t.stepId, t.dueAt);
    }
    // Only a stop that cut attempts short is an event; re-arming timers changes nothing.
    const interrupted = plan.interrupted.length;
    if (interrupted > 0) this.port.emit(live, 'engine_resumed', { interrupted }, { reason: `${interrupted} attempt(s) were interrupted by a stop` });
    this.port.markDirty(live);
  }
}
