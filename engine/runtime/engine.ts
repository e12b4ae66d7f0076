// The engine a program uses, composed of parts rather than inherited: the scheduler core
// (engine-core.ts: tick loop, emit, launch, timers), one handler per waiting kind registered with
// it (waits, people, events, child runs; step-handler.ts), and operator control
// (operator-actions.ts). Each part acts on runs through the core's narrow RunPort. A refused
// action is refused by the rules of shared/run/action-rules.ts before anything is written.
import type { RunState } from '../../shared/definition/names.ts';
import type { ExternalEvent } from '../store/store.ts';
import { migrateLive, type MigrationDecider } from './migrate-live.ts';
import type { RunMetrics } from '../metrics/run-metrics.ts';
import { runMetricsOf, workflowReport, type WorkflowReport } from '../metrics/stats.ts';
import { ChildRunHandler } from './child-run-handler.ts';
import { EngineCore, type EngineParts } from './engine-core.ts';
import { EventHandler } from './event-handler.ts';
import type { ArtifactStore, EngineOptions, LiveRun, StartRunOptions } from './live-run.ts';
import { OperatorActions } from './operator-actions.ts';
import type { RunModel } from '../../shared/run/run-model.ts';
import type { Timeline } from '../../shared/api/timeline.ts';
import { timeline } from '../../shared/run/timeline.ts';
import { TaskHandler, type TaskDecision } from './task-handler.ts';
import { WaitHandler } from './wait-handler.ts';
import type { ProviderCircuits } from '../../shared/api/provider-circuits.ts';

export type { EngineOptions, StartRunOptions } from './live-run.ts';
export type { EngineParts } from './engine-core.ts';

export class Engine {
  private readonly core: EngineCore;
  private readonly tasks: TaskHandler;
  private readonly events: EventHandler;
  private readonly operator: OperatorActions;

  constructor(private readonly o: EngineOptions, parts: EngineParts = {}) {
    const core = new EngineCore(o, parts);
    this.core = core;
    this.tasks = new TaskHandler(core);
    this.events = new EventHandler(core);
    this.operator = new OperatorActions(core, (kind) => core.handlerFor(kind));
    const children = new ChildRunHandler(core, (runId, why) => this.operator.cancelRun(runId, 'engine', why), o.workspaceTrust);
    core.handle({ wait: new WaitHandler(core), human: this.tasks, event: this.events, subworkflow: children, map: children });
    core.onRunEnd(children);
  }

  /** Where this engine keeps values by reference (docs/long-running.md). */
  get artifacts(): ArtifactStore {
    return this.core.artifacts.store;
  }

  /** Records that `by` opened a stored artifact of the run (a settled run too): the value is not logged, only whose and where. */
  artifactOpened(runId: string, data: { sha256: string; path: string; by: string }): Promise<void> {
    return this.operator.artifactOpened(runId, data);
  }

  /** Creates a run and schedules it; returns its id. The definition must be saved already. */
  startRun(opts: StartRunOptions): string {
    return this.core.startRun(opts);
  }

  /** Adds an input revision: the run passes over its graph again, reusing evidence whose coverage still matches. */
  revise(runId: string, input: unknown): number {
    return this.core.revise(runId, input);
  }

  /** Moves a run to another version of its workflow, in one event of its next tick (migrate-live.ts). */
  migrate(runId: string, decide: MigrationDecider): Promise<void> {
    return migrateLive(this.core, runId, decide);
  }

  /** Loads (or returns) a run from the log; recovers attempts that a stopped engine left running. */
  load(runId: string): LiveRun {
    return this.core.load(runId);
  }

  /** Continues every unfinished run of the store. Returns how many runs and interrupted attempts. */
  recover(): { runs: number; interrupted: number } {
    return this.core.recover();
  }

  /** Resolves when the run has ended or only waiting work (people, events, timers, escalations) remains. */
  settled(runId: string): Promise<RunState> {
    return this.core.settled(runId);
  }

  model(runId: string): RunModel | undefined {
    return this.core.model(runId);
  }

  /** Stops timers and aborts running attempts; the log already holds everything needed to resume. */
  close(): void {
    this.core.close();
  }

  /** Stops the engine for good after a failure of its store; everyone waiting hears the error. */
  fail(error: unknown): void {
    this.core.fail(error);
  }

  /** Starts nothing more that runs outside the engine; resolves when every running attempt's end is recorded. */
  drain(): Promise<void> {
    return this.core.drain();
  }

  /** True when the engine has nothing to do until a timer fires or an executor answers. */
  get idle(): boolean {
    return this.core.idle;
  }

  /** How many unfinished runs this engine holds in memory (a worker's --max-runs counts them). */
  get heldRuns(): number {
    return this.core.heldRuns;
  }

  /** Another engine sharing the store asks: the run's waiting steps look again at what they wait for. */
  resumeWaits(runId: string): void {
    this.core.resumeWaits(runId);
  }

  /** Attempts queued for a slot of a resource's pool try again: another engine sharing the store freed one. */
  retrySlots(): void {
    this.core.attempts.pools.retryQueued();
  }

  /** Each provider's circuit as this engine sees it now (docs/routing.md "Circuits"). */
  providerCircuits(): ProviderCircuits {
    return this.core.attempts.circuits.snapshot(this.core.clock.now());
  }

  /** Writes whatever is pending (the CLI calls this before exiting). */
  flush(): void {
    this.core.flush();
  }

  /** Where a run's time went, its retries, compensations, interventions and failure (from its log). */
  runMetrics(runId: string): RunMetrics {
    this.flush(); // with the projections of what it writes
    return runMetricsOf(this.o.store, runId, this.o.clock.now());
  }

  /** Where a run's time went, as spans per step activation and attempt; its totals are runMetrics'. */
  timeline(runId: string): Timeline {
    this.flush(); // with what it writes
    return timeline(this.o.store.readEvents(runId), this.o.clock.now());
  }

  /** A workflow's rates, branch frequencies and step latencies over its runs (docs/metrics.md). */
  workflowStats(workflowId: string, version?: number): WorkflowReport {
    this.flush(); // with the projections of what it writes
    return workflowReport(this.o.store, workflowId, { ...(version === undefined ? {} : { version }), asOf: this.o.clock.now() });
  }

  pauseRun(runId: string, by: string, reason: string): Promise<void> {
    return this.operator.pauseRun(runId, by, reason);
  }

  unpauseRun(runId: string, by: string, reason: string): Promise<void> {
    return this.operator.unpauseRun(runId, by, reason);
  }

  /** `continue` or `step` a debug run paused at a breakpoint. */
  debugResume(runId: string, mode: 'continue' | 'step', by: string, reason: string): Promise<void> {
    return this.operator.debugResume(runId, mode, by, reason);
  }

  /** An operator's note on the run or one of its steps (`note_added`), in any run state. */
  addNote(runId: string, stepId: string | undefined, text: string, by: string): Promise<void> {
    return this.operator.addNote(runId, stepId, text, by);
  }

  cancelRun(runId: string, by: string, reason: string): Promise<void> {
    return this.operator.cancelRun(runId, by, reason);
  }

  retryStep(runId: string, stepId: string, by: string, reason: string, input?: { value: unknown }): Promise<void> {
    return this.operator.retryStep(runId, stepId, by, reason, input);
  }

  skipStep(runId: string, stepId: string, output: unknown, by: string, reason: string): Promise<void> {
    return this.operator.skipStep(runId, stepId, output, by, reason);
  }

  resolveStep(runId: string, stepId: string, as: 'succeeded' | 'failed', by: string, reason: string, evidence?: unknown): Promise<void> {
    return this.operator.resolveStep(runId, stepId, as, by, reason, evidence);
  }

  /** For a step a revision holds: the earlier evidence stands for the new revision. */
  keepStep(runId: string, stepId: string, by: string, reason: string): Promise<void> {
    return this.operator.keepStep(runId, stepId, by, reason);
  }

  /** A person's decision on a waiting human step (weft approve / weft reject). */
  decideTask(runId: string, stepId: string, d: TaskDecision): Promise<void> {
    return this.tasks.decide(runId, stepId, d);
  }

  reassignTask(runId: string, stepId: string, to: string, by: string): Promise<void> {
    return this.tasks.reassign(runId, stepId, to, by);
  }

  /**
   * Delivers to the run (loading it) the events stored for its waiting event steps that no run
   * consumed: a send stopped between the event's commit and its delivery. Resolves once committed.
   */
  deliverStoredEvents(runId: string): Promise<void> {
    return this.events.deliverStored(runId);
  }

  /**
   * An event sent from outside: stored (duplicates ignored), then delivered to the oldest loaded
   * run waiting for it. `stored` is awaited between the two (a crash test's pause).
   */
  async sendEvent(e: ExternalEvent, stored?: () => Promise<void>): Promise<{ status: 'delivered' | 'kept' | 'duplicate'; runId?: string }> {
    const sent = await this.events.send(e, stored);
    // Stored: an engine sharing the store that holds the waiting run, poked, delivers it (docs/scale-out.md).
    this.core.sendPokes();
    return sent;
  }
}
