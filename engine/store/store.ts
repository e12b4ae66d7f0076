// The store: the one way into a weft store's SQLite file for the rest of the engine. A facade
// over the store's jobs, each in its own file: the event log (event-log.ts), the run and step
// projections (projections.ts), the definitions with their saved versions (definitions.ts), the
// external events (external-events.ts), the rollups of finished runs (run-rollups.ts), the spend
// per day (day-spend.ts) and the snapshots of big runs' folded models (run-snapshots.ts). They
// share one unit of work (unit-of-work.ts): what a tick appends and projects is written by flush()
// in one transaction, and subscribers hear of the events only after that commit. The connection
// stays inside engine/store/: code elsewhere asks the Store, or a repository it owns
// (store.definitions, store.spend), and never runs SQL on it (test/lint/store-connection.test.ts).
// Over 400 lines: a facade of one short method per job of the store, each handing on to its file.
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { EventType, RunEvent } from '../../shared/events/run-event.ts';
import { storeLogDamage } from './check-log.ts';
import type { CommitListener, CommittedEvent } from './commit-listeners.ts';
import type { Db } from './db.ts';
import { Definitions } from './definitions.ts';
import { EventLog } from './event-log.ts';
import { ExternalEvents } from './external-events.ts';
import { Projections } from './projections.ts';
import type { RunListFilter, RunListRow } from './run-list.ts';
import { RunRollups, type RolledUpRun } from './run-rollups.ts';
import { DaySpend } from './day-spend.ts';
import { RunSnapshots, type SnapshotPolicy } from './run-snapshots.ts';
import type { RunDetail } from '../../shared/api/run-detail.ts';
import type { RunModel } from '../../shared/run/run-model.ts';
import { foldEvents } from '../../shared/run/fold-events.ts';
import type { CursorPage, ExternalEvent, NewEvent, RunEventPage, RunRow, StepProjection, StoreStats } from './store-types.ts';
import { UnitOfWork, type CommitBatch } from './unit-of-work.ts';
import { PolicySnapshots } from './policy-snapshots.ts';
import { referencedArtifacts } from './artifact-refs.ts';
import { isReplayRun, saveReplayRun, type ReplayRunRecord } from './replay-runs.ts';
import type { WorkflowRollups } from './workflow-rollups.ts';
import { PgCoordination, type WorkerRow } from './pg/pg-coordination.ts';
import type { PgDb } from './pg/pg-db.ts';

export type { CommitListener, CommittedEvent } from './commit-listeners.ts';
export type { CursorPage, ExternalEvent, NewEvent, RunEventPage, RunKind, RunRow, StepProjection, StoreStats } from './store-types.ts';
export type { ReplayRunRecord } from './replay-runs.ts';
export { snapshotWorkflow } from './definition-snapshot.ts';
export type { SnapshotPolicy } from './run-snapshots.ts';

/** How a store is made: `snapshots` says when big runs get model snapshots (tests give small numbers). */
export interface StoreOptions {
  snapshots?: SnapshotPolicy;
}

export class Store {
  /** Commits, durable commits, rows written and bytes of event data appended, since the store was made. */
  readonly stats: StoreStats;
  /** The definition snapshots runs used and the versions saved from the app: a workflow's history. */
  readonly definitions: Definitions;
  private readonly work: UnitOfWork;
  private readonly log: EventLog;
  private readonly policies: PolicySnapshots;
  private readonly external: ExternalEvents;
  private readonly projections: Projections;
  private readonly rollups: RunRollups;
  private readonly snapshots: RunSnapshots;
  /** What each workflow spent per day (day-spend.ts): daily budgets read it. */
  readonly spend: DaySpend;

  /** A store over an open connection; its owner (engine/host, a test) closes the connection. */
  constructor(db: Db, options: StoreOptions = {}) {
    this.work = new UnitOfWork(db);
    this.stats = this.work.stats;
    this.policies = new PolicySnapshots(db);
    this.log = new EventLog(this.work, this.policies);
    this.external = new ExternalEvents(this.work);
    this.projections = new Projections(this.work, this.log);
    this.definitions = new Definitions(this.work);
    // A run that finishes is rolled up from the log this store wrote, when it has it whole (the
    // rollups fold a run only as it finishes, or again after: taken once, then read back).
    this.rollups = new RunRollups(db, (runId) => this.log.takeWrittenLog(runId) ?? this.readRunLog(runId));
    this.snapshots = new RunSnapshots(db, options.snapshots);
    this.spend = new DaySpend(this.work);
    // The commit's order: the policies new runs started under, events, the consumption of external events, projections, the rollups
    // of the runs the events touched (they read the log just written), then the snapshots (each
    // records the cursor of the event it covers, written by then).
    this.work.add(this.policies);
    this.work.add(this.log);
    this.work.add(this.external);
    this.work.add(this.projections);
    this.work.add({ hasPending: false, take: () => ({ rows: 0, write: ({ events }) => this.rollups.afterWrite(events) }) });
    for (const part of [this.spend, this.snapshots]) this.work.add(part);
  }

  /**
   * The engine lease this store's connection holds (engine-host.ts takes it before scheduling):
   * while it is held, no other connection writes runs, and the store's caches of what it wrote
   * need no check for others' commits (DaySpend).
   */
  useLease(lease: { readonly held: boolean }): void {
    this.spend.useSoleWriter(() => lease.held);
  }

  /**
   * What each commit's transaction does first (an engine sharing a PostgreSQL store: its fence,
   * pg-coordination.ts): a guard that throws fails the commit, and nothing of the batch is written.
   */
  guardCommits(guard: (batch: CommitBatch) => void): void {
    this.work.guardWith(guard);
  }

  /**
   * The engines sharing this PostgreSQL store and alive now (their heartbeat within their ttl),
   * oldest first: what `GET /api/health` shows. Undefined on SQLite, where one engine holds a
   * store at a time (its lease).
   */
  liveWorkers(): WorkerRow[] | undefined {
    const db = this.work.db as Db & { dialect?: string };
    return db.dialect === 'postgres' ? new PgCoordination(db as PgDb, 'serve', 0).workers() : undefined;
  }

  /** The sha256 of every artifact the store's runs reference (artifact-refs.ts): what `weft gc` keeps. */
  referencedArtifacts(): Set<string> {
    return referencedArtifacts(this.work);
  }

  // ---- definitions ----

  /**
   * Stores the snapshot of a definition version, or checks it against the one stored. The editor's
   * `layout` and `$schema` are not part of the content: moving a box does not need a new version.
   */
  saveDefinition(workflow: Workflow, now: number): string {
    return this.definitions.saveSnapshot(workflow, now);
  }

  /** A version's run snapshot and hash; one parsed object per version, shared by its runs. */
  loadDefinition(workflowId: string, version: number): { workflow: Workflow; hash: string } | undefined {
    return this.definitions.snapshot(workflowId, version);
  }

  /** Workflow ids with a stored definition, and the latest version of each. */
  workflowVersions(): Map<string, number> {
    return this.definitions.workflowVersions();
  }

  // ---- the unit of work ----

  /** Adds an event to the current batch; it is durable after the next flush(). */
  append<T extends EventType>(e: NewEvent<T>): RunEvent<T> {
    return this.log.append(e);
  }

  setRunProjection(run: RunRow): void {
    this.projections.setRun(run);
  }

  setStepProjection(runId: string, step: StepProjection): void {
    this.projections.setStep(runId, step);
  }

  /** A finished run keeps no step rows: its steps are read from its log (weft inspect). */
  clearStepProjection(runId: string): void {
    this.projections.clearStepsOf(runId);
  }

  /**
   * Deletes every step projection row in the next flush, before the rows the caller then sets
   * (runs keep their identity columns): a rebuild is one transaction, never half done.
   */
  clearProjections(): void {
    this.projections.clearAllSteps();
  }

  /** Marks an event consumed, in the same commit as the run events that record its delivery. */
  consumeExternalEvent(id: string, runId: string, stepId: string): void {
    this.external.markConsumed(id, runId, stepId);
  }

  get hasPending(): boolean {
    return this.work.hasPending;
  }

  /** Writes the batch in one transaction; with `durable`, that commit is fsynced. */
  flush(durable = false): void {
    this.work.flush(durable);
  }

  /**
   * Calls `listener` with each event after the commit that wrote it, in commit order, with its
   * global cursor; returns the function that unsubscribes. A listener that throws is skipped
   * (its error goes to `onError`, if given) and never stops the engine. On SQLite listeners hear
   * this store's own commits (a client in another process reads by cursor: readEventsAfter); on
   * PostgreSQL every engine's commits to the store, once each (pg/log-tail.ts).
   *
   * @example
   * const stop = store.subscribe(({ cursor, event }) => send(cursor, event), (e) => log(e));
   */
  subscribe(listener: CommitListener, onError?: (error: unknown) => void): () => void {
    return this.log.subscribe(listener, onError);
  }

  // ---- the event log ----

  /** A run's log in seq order: all of it, or the page after `after` of at most `limit` events, each checked against its schema. */
  readEvents(runId: string, page: RunEventPage = {}): RunEvent[] {
    return this.log.readEvents(runId, page);
  }

  /**
   * A run's whole log in seq order, for the engine's fold, without the schema check of each
   * event's data that readEvents makes (why that is safe: event-rows.ts). Types, JSON and gaps
   * are still checked.
   *
   * @example const model = foldEvents(workflow, store.readRunLog('r1'));
   */
  readRunLog(runId: string): RunEvent[] {
    return this.log.readRunLog(runId);
  }

  /**
   * The logs of several runs, each as readRunLog reads it, in one query: what recovery reads for
   * every unfinished run. A run without events maps to an empty log.
   *
   * @example const logs = store.readRunLogs(store.unfinishedRunIds());
   */
  readRunLogs(runIds: readonly string[]): Map<string, RunEvent[]> {
    return this.log.readRunLogs(runIds);
  }

  /**
   * The events committed after `cursor`, in commit order, of every run or of the runs named: what
   * a client that saw everything up to `cursor` has missed. Pass the last cursor of a page to
   * get the next one; an empty page means nothing newer is committed yet.
   */
  readEventsAfter(cursor: number, page: CursorPage = {}): CommittedEvent[] {
    return this.log.readEventsAfter(cursor, page);
  }

  /** The newest cursor of the event log, or of run `runId`'s events (0 when there are none): where "from now on" starts. */
  lastCursor(runId?: string): number {
    return this.log.lastCursor(runId);
  }

  /** A run created by this engine: its log starts empty, no need to ask the database. */
  newRun(runId: string): void {
    this.log.newRun(runId);
  }

  /** The last sequence number of a run whose log was just read (saves a query per run on recovery). */
  knownLastSeq(runId: string, seq: number): void {
    this.log.knownLastSeq(runId, seq);
  }

  hasEvents(runId: string): boolean {
    return this.log.hasEvents(runId);
  }

  /** Every run with events in the log (projections are rebuilt from these). */
  loggedRunIds(): string[] {
    return this.log.loggedRunIds();
  }

  /** Which of `runIds` are debug runs (their run_created event carries debug settings). */
  debugRunIds(runIds: readonly string[]): Set<string> {
    return this.log.debugRunIds(runIds);
  }

  /**
   * What is wrong with the store's log (check-log.ts), in one line naming the run and event, or
   * undefined when it reads as weft's; read as of one snapshot.
   */
  logDamage(): string | undefined {
    return storeLogDamage(this.work.db);
  }

  // ---- external events ----

  /**
   * Records an event sent from outside (weft send), in its own commit: once this returns, the
   * event is kept until a run consumes it. A repeated id is counted and ignored.
   */
  receiveExternalEvent(e: ExternalEvent): 'new' | 'duplicate' {
    return this.external.receive(e);
  }

  /**
   * The oldest event with this name and key that no run has consumed, in the store or in the
   * batch not yet written (or none); events named in `except` are passed over.
   */
  findExternalEvent(name: string, key: string, except: ReadonlySet<string> = new Set()): ExternalEvent | undefined {
    return this.external.find(name, key, except);
  }

  /** Names and keys of the events stored that no run has consumed yet (the partial index). */
  unconsumedEventKeys(): { name: string; key: string }[] {
    return this.external.unconsumedKeys();
  }

  hasExternalEvent(id: string): boolean {
    return this.external.has(id);
  }

  /** The run (and step) that consumed the event, in the store or in the batch not yet written. */
  externalEventConsumer(id: string): { runId: string; stepId: string } | undefined {
    return this.external.consumer(id);
  }

  // ---- snapshots of big runs (run-snapshots.ts) ----

  /**
   * The engine's model of a run after a tick (it must be the fold of the run's log so far): kept
   * for the next commit as the run's snapshot when one is due (the run is big, and finished or
   * far past its last snapshot); otherwise nothing is done.
   */
  offerRunSnapshot(model: RunModel): void {
    this.snapshots.offer(model);
  }

  /**
   * The run's model as its snapshot has it, with its definition, if the store holds one it can
   * trust: a fold of the log up to `lastSeq`, to be folded on by the events after that. A new
   * object each time: the caller may fold it on.
   */
  runSnapshot(runId: string): RunModel | undefined {
    const stored = this.snapshots.model(runId);
    const workflow = stored === undefined ? undefined : this.definitionOfRun(runId);
    return stored === undefined || workflow === undefined ? undefined : { ...stored, workflow };
  }

  /**
   * The run's summary from its snapshot (RunDetail with each step's latest `latestAttempts`
   * attempts, no definition) with its definition, only while no event came after the snapshot.
   */
  currentRunSummary(runId: string, latestAttempts: number): { detail: RunDetail; workflow: Workflow } | undefined {
    const detail = this.snapshots.currentSummary(runId, latestAttempts);
    const workflow = detail === undefined ? undefined : this.definitionOfRun(runId);
    return detail === undefined || workflow === undefined ? undefined : { detail, workflow };
  }

  /**
   * Migration 12: a snapshot of every run of at least `minEvents` events, folded from its log; a
   * log that does not fold gets none (a reader folds it and names the damage). How many it wrote.
   */
  backfillRunSnapshots(minEvents: number): number {
    let written = 0;
    for (const runId of this.snapshots.runsWithEvents(minEvents)) {
      try {
        const events = this.readRunLog(runId);
        const created = events[0];
        const def = created?.type === 'run_created' ? this.loadDefinition(created.data.workflowId, created.data.version) : undefined;
        if (def === undefined) continue;
        this.snapshots.write(foldEvents(def.workflow, events));
        written++;
      } catch {
        // Damaged: no snapshot.
      }
    }
    return written;
  }

  private definitionOfRun(runId: string): Workflow | undefined {
    const row = this.getRun(runId);
    return row === undefined ? undefined : this.loadDefinition(row.workflowId, row.version)?.workflow;
  }

  // ---- replays (replay-runs.ts) ----
  /** Stores a replay whole (definition, events, row of kind 'replay') in its own transaction, not the engine's pending batch. */
  saveReplayRun(record: ReplayRunRecord, now: number): void {
    saveReplayRun(this.work.db, record, now);
  }

  /** Whether the run is a replay: no engine loads one, no list or stat counts one. */
  isReplayRun(runId: string): boolean {
    return isReplayRun(this.work.db, runId);
  }

  // ---- runs ----

  /**
   * The runs of a workflow (of one version if given), oldest first, each with its finished
   * metrics' JSON from the rollups (run-rollups.ts), or null for a run still going.
   */
  rolledUpRuns(workflowId: string, version?: number): RolledUpRun[] {
    return this.rollups.runsOf(workflowId, version);
  }

  /** A finished run's metrics' JSON from its rollup; undefined while it is not finished. */
  rolledUpMetricsOf(runId: string): string | undefined {
    return this.rollups.metricsOf(runId);
  }

  /** The per-workflow counters and samples of finished runs (workflow-rollups.ts), for stats. */
  workflowRollups(): WorkflowRollups {
    return this.rollups.workflows;
  }

  getRun(runId: string): RunRow | undefined {
    return this.projections.getRun(runId);
  }

  /** Resolves a full run id or a unique prefix of one. */
  resolveRunId(idOrPrefix: string): string {
    return this.projections.resolveRunId(idOrPrefix);
  }

  listRuns(limit = 50): RunRow[] {
    return this.projections.listRuns(limit);
  }

  /** A page of the runs list, newest first, filtered, after the `next` of the previous page (run-list.ts). */
  runPage(filter: RunListFilter): { rows: RunListRow[]; next: string | null } {
    return this.projections.runPage(filter);
  }

  /** Unfinished runs that have a step waiting (from the step projection). */
  runsWithWaitingSteps(): string[] {
    return this.projections.runsWithWaitingSteps();
  }

  /** The run created earlier with this idempotency key (weft run --key), if any. */
  runByKey(workflowId: string, key: string): string | undefined {
    return this.projections.runByKey(workflowId, key);
  }

  /** Runs of a workflow in state running (the projection), for limits.maxParallelRuns. */
  runningRunIds(workflowId: string): string[] {
    return this.projections.runningRunIds(workflowId);
  }

  /** Runs of a workflow (of one version if given), oldest first. */
  runIdsOfWorkflow(workflowId: string, version?: number): string[] {
    return this.projections.runIdsOfWorkflow(workflowId, version);
  }

  unfinishedRunIds(): string[] {
    return this.projections.unfinishedRunIds();
  }

  stepProjections(runId: string): StepProjection[] {
    return this.projections.stepProjections(runId);
  }

  /**
   * Runs with events in the log but no row in `runs` (an older engine committed a child run's creation
   * and its row apart; a crash between them orphaned it). One index seek per run, not per event.
   */
  runsWithoutRow(): string[] {
    return this.projections.runsWithoutRow();
  }
}
