// The read side of the service: what a front end may ask of a store without driving it (no
// engine, no lease), so `weft runs|inspect|events|tasks|stats` and `weft revise --dry-run` read a
// store opened read-only, and the server answers the same questions from its own store.
import type { RevisePlan, RevisePlanStep } from '../../shared/api/input-commands.ts';
import type { RunDetail } from '../../shared/api/run-detail.ts';
import type { RebillEstimate, RebillQuery } from '../../shared/cost/rebill-estimate.ts';
import type { RunValue, RunValueQuery } from '../../shared/api/run-value.ts';
import { elideEvent } from '../../shared/run/elide-values.ts';
import { runValueOf } from './run-value-read.ts';
import type { TaskSummary } from '../../shared/api/task-summary.ts';
import { openTasks } from '../../shared/run/open-tasks.ts';
import { runDetail } from '../../shared/run/run-detail.ts';
import { compareRuns } from '../../shared/run/compare-runs.ts';
import type { RunComparison } from '../../shared/api/run-comparison.ts';
import type { ComparisonCut } from '../../shared/run/elide-comparison.ts';
import type { RunState } from '../../shared/definition/names.ts';
import type { RunEvent } from '../../shared/events/run-event.ts';
import { workflowReport, type WorkflowReport } from '../metrics/stats.ts';
import { costSummary } from '../metrics/cost-summary.ts';
import type { CostSummary } from '../../shared/api/cost-stats.ts';
import { systemClock, type Clock } from '../time/clock.ts';
import { foldForReader } from './snapshot-fold.ts';
import type { RunModel } from '../../shared/run/run-model.ts';
import type { RunKind, Store } from '../store/store.ts';
import { MAX_RUN_PAGE } from '../../shared/api/run-summary.ts';
import { followRunEvents } from './follow-run-events.ts';
import { ServiceError, serviceErrorOf } from './service-error.ts';
import type { RunScenario } from './run-scenario-read.ts';
import { MemoryArtifactStore, type ArtifactStore } from '../artifacts/artifact-store.ts';
export type { RestartRecord } from '../../shared/run/restart-record.ts';

/** A run as `weft runs` lists it. */
export interface RunRowView {
  id: string;
  workflowId: string;
  version: number;
  state: RunState;
  inputRevision: number;
  createdAt: string;
  /** Only on a debug run. */
  debug?: true;
  /** Only on a run that waits for a daily budget. */
  waitingFor?: 'budget';
}

/** Events of one run after a sequence number; `next` is the `after` of the following page, or null at the end. */
export interface RunEventsPage {
  runId: string;
  events: RunEvent[];
  next: number | null;
}

/** The runs an event named NAME may go to: those with an event step for it still to settle, and the first one waiting for NAME and KEY now. */
export interface EventCandidates {
  candidates: string[];
  receiver: string | undefined;
}

import type { Workflow } from '../../shared/definition/workflow-schema.ts';

export class RunReader {
  constructor(
    readonly store: Store,
    private readonly clock: Clock = systemClock,
    /** Where the store keeps values by reference (artifactsDirOf(dbPath)); none: an in-memory store's, empty. */
    private readonly artifacts: ArtifactStore = new MemoryArtifactStore(),
  ) {}

  /** A version of a workflow the store keeps (it ran, or was saved from the app), with its layout where one was saved. */
  storedDefinition(workflowId: string, version: number): Workflow | undefined {
    return this.store.definitions.version(workflowId, version)?.workflow;
  }

  /** The highest version of a workflow the store keeps; 0 when it keeps none. */
  latestStoredVersion(workflowId: string): number {
    return this.store.definitions.latestVersion(workflowId);
  }

  /** A run id, or a unique prefix of one, as the store has it. */
  resolveRunId(idOrPrefix: string): string {
    return this.store.resolveRunId(idOrPrefix);
  }

  /** The run a lesson is learnt from (weft lesson add, POST /api/workflows/:id/lessons): its id and workflow. */
  lessonRun(idOrPrefix: string): { runId: string; workflowId: string } {
    const runId = this.resolveRunId(idOrPrefix);
    const row = this.store.getRun(runId);
    if (row === undefined) throw new Error(`run ${runId} resolved but has no row`);
    return { runId, workflowId: row.workflowId };
  }

  /**
   * The run as its log says, each event checked against its schema (Store.readEvents): what a
   * reader shows, forks and revises is named if damaged, never passed on. A big run is folded
   * on from its stored snapshot (snapshot-fold.ts). The engine's own loads (resume, recovery)
   * fold the log unchecked (fold-run.ts).
   */
  fold(runId: string): RunModel {
    return foldForReader(this.store, runId).model;
  }

  /** The newest runs, newest first. */
  recentRuns(limit: number, kind: RunKind = 'run'): RunRowView[] {
    const rows = kind === 'run' ? this.store.listRuns(limit) : this.store.runPage({ kind, limit: Math.min(limit, MAX_RUN_PAGE) }).rows;
    const debug = this.store.debugRunIds(rows.map((r) => r.id));
    const budget = this.store.spend.waitingForBudget(rows.filter((r) => r.state === 'waiting').map((r) => r.id));
    return rows.map((r) => ({
      id: r.id, workflowId: r.workflowId, version: r.version, state: r.state, inputRevision: r.inputRevision, createdAt: new Date(r.createdAt).toISOString(),
      ...(debug.has(r.id) ? { debug: true as const } : {}),
      ...(budget.has(r.id) ? { waitingFor: 'budget' as const } : {}),
    }));
  }

  /** The run's RunDetail: the restart record, permitted actions, attempt details (`weft inspect --json`). */
  runDetail(idOrPrefix: string): RunDetail {
    return runDetail(this.fold(this.resolveRunId(idOrPrefix)));
  }

  /**
   * Runs A and B side by side (`weft compare --json`, `GET /api/compare`), each with its own
   * version's definition; with `cut`, large values come as stubs and field lists are cut.
   */
  runComparison(a: string, b: string, cut?: ComparisonCut): RunComparison {
    const ma = this.fold(this.resolveSide('A', a));
    const mb = this.fold(this.resolveSide('B', b));
    return compareRuns(runDetail(ma), runDetail(mb), { a: ma.workflow, b: mb.workflow }, cut === undefined ? {} : { cut });
  }

  /** A run id of a comparison; an unknown one is named by its side, so the user knows which to fix. */
  private resolveSide(side: 'A' | 'B', idOrPrefix: string): string {
    try {
      return this.resolveRunId(idOrPrefix);
    } catch (e) {
      const known = serviceErrorOf(e);
      if (known?.code === 'not-found') throw new ServiceError('not-found', `run ${side}: ${known.message}`);
      throw e;
    }
  }

  /**
   * One value of the run by its value path (shared/api/value-path.ts), whole or cut as the query
   * says (`GET /api/runs/:id/value`; run-value-read.ts). A malformed path is bad input; a path to nothing is not found.
   */
  runValue(idOrPrefix: string, q: RunValueQuery): RunValue {
    return runValueOf(this.store, { resolveRunId: (id) => this.resolveRunId(id), fold: (runId) => this.fold(runId) }, idOrPrefix, q);
  }

  /** The scenario that replays the run in virtual time (`weft test --from-run`, `GET /api/runs/:id/scenario`; run-scenario-read.ts). */
  async runScenario(idOrPrefix: string): Promise<RunScenario> {
    // The scenario schema (and its JSONata check) loads with the command that asks for it.
    const { scenarioOfRun } = await import('./run-scenario-read.ts');
    return scenarioOfRun(this.store, this.artifacts, this.resolveRunId(idOrPrefix), (runId) => this.fold(runId));
  }

  /** A page of a run's log: the events after `after`, at most `limit` (all without a limit). */
  eventPage(idOrPrefix: string, after: number, limit?: number, elide?: number): RunEventsPage {
    const runId = this.resolveRunId(idOrPrefix);
    // One event more than the page tells whether another page follows.
    const read = this.store.readEvents(runId, limit === undefined ? { after } : { after, limit: limit + 1 });
    const whole = limit === undefined ? read : read.slice(0, limit);
    const events = elide === undefined ? whole : whole.map((e) => elideEvent(e, elide));
    const next = limit !== undefined && read.length > limit ? (events[events.length - 1]?.seq ?? null) : null;
    return { runId, events, next };
  }

  /** Prints a run's events as they are committed, by any process, until it ends; its end state. */
  followEvents(runId: string, after: number, print: (event: RunEvent) => void): Promise<RunState> {
    return followRunEvents(this.store, runId, after, print, this.clock);
  }

  /** Every open task for a person, across runs. */
  openTasks(): TaskSummary[] {
    return this.store.runsWithWaitingSteps().flatMap((runId) => openTasks(this.fold(runId)));
  }

  /** A workflow's figures over its runs in this store (docs/metrics.md), as of now. */
  workflowReport(workflowId: string, version?: number): { asOf: number; report: WorkflowReport } {
    const asOf = this.clock.now();
    return { asOf, report: workflowReport(this.store, workflowId, { ...(version === undefined ? {} : { version }), asOf }) };
  }

  /** What every workflow of this store cost, and each UTC day across them (docs/metrics.md, "Cost"). */
  costSummary(): CostSummary {
    return costSummary(this.store, this.clock.now());
  }

  /**
   * What a revision of the run with `input` will do, from its log, writing nothing: the new
   * input is checked against the run's input schema first.
   */
  async revisePlan(runId: string, input: unknown): Promise<RevisePlan> {
    // The schema validator and the expression engine load with the command that plans.
    const [{ checkRunInput }, { planRevision }, { indexDefinition }] = await Promise.all([import('./run-input-check.ts'), import('../runtime/revision-plan.ts'), import('../../shared/run/definition-index.ts')]);
    const model = this.fold(runId);
    checkRunInput(model.workflow, input);
    const plan = await planRevision(model, indexDefinition(model.workflow), input);
    const steps: RevisePlanStep[] = plan.steps;
    const { revisionRebill } = await import('../runtime/rebill-plan.ts');
    return { runId, state: model.state, dryRun: true, inputRevision: plan.inputRevision, plan: steps, rebill: revisionRebill(model, steps) };
  }

  /**
   * Which steps a retry or fork of the run from `step`, or a replay of it, will bill again, about
   * how much (engine/runtime/rebill-plan.ts); a revision's comes with its plan (revisePlan).
   */
  async rebill(runId: string, query: RebillQuery): Promise<RebillEstimate> {
    const { retryRebill, forkRebill, replayRebill } = await import('../runtime/rebill-plan.ts');
    const model = this.fold(runId);
    if (query.action === 'replay') return replayRebill(model);
    const step = query.step;
    if (step === undefined) throw new ServiceError('bad-input', `a ${query.action}'s estimate needs the step: give step=STEP`);
    if (!model.steps.has(step)) throw new ServiceError('not-found', `run ${runId} has no step "${step}"; its steps are ${[...model.steps.keys()].join(', ')}`);
    return query.action === 'retry' ? retryRebill(model, step) : forkRebill(model, step);
  }

  /**
   * The runs event NAME may go to. Only runs whose definition waits for NAME at all are folded
   * (definitions are cached); `receiver` is the oldest run waiting for NAME and KEY now.
   */
  eventCandidates(name: string, key: string): EventCandidates {
    const candidates: string[] = [];
    let receiver: string | undefined;
    for (const runId of this.store.unfinishedRunIds()) {
      const row = this.store.getRun(runId);
      const def = row === undefined ? undefined : this.store.loadDefinition(row.workflowId, row.version);
      if (!def?.workflow.steps.some((s) => s.kind === 'event' && s.config.name === name)) continue;
      const m = this.fold(runId);
      if (def.workflow.steps.some((s) => s.kind === 'event' && s.config.name === name && m.steps.get(s.id)?.state !== 'succeeded')) candidates.push(runId);
      if (receiver === undefined && [...m.steps.values()].some((s) => s.state === 'waiting' && s.awaiting?.name === name && s.awaiting.key === key)) receiver = runId;
    }
    return { candidates, receiver };
  }

  /**
   * Runs with an event step waiting now for an event that is stored and unconsumed: a send that
   * stopped between the event's commit and its delivery left it there. Costs nothing while every
   * stored event has been consumed; else one fold per run with a waiting step of a workflow that
   * waits for one of those names.
   */
  runsAwaitingStoredEvents(): string[] {
    const stored = this.store.unconsumedEventKeys();
    if (stored.length === 0) return [];
    const names = new Set(stored.map((e) => e.name));
    const keys = new Set(stored.map((e) => JSON.stringify([e.name, e.key])));
    return this.store.runsWithWaitingSteps().filter((runId) => {
      const row = this.store.getRun(runId);
      const def = row === undefined ? undefined : this.store.loadDefinition(row.workflowId, row.version);
      if (!def?.workflow.steps.some((s) => s.kind === 'event' && names.has(s.config.name))) return false;
      return [...this.fold(runId).steps.values()].some((s) => s.state === 'waiting' && s.awaiting !== null && keys.has(JSON.stringify([s.awaiting.name, s.awaiting.key])));
    });
  }

  /** The run's state as its row has it. */
  storedState(runId: string): RunState {
    const row = this.store.getRun(runId);
    if (row === undefined) throw new ServiceError('not-found', `no run "${runId}" in this store`);
    return row.state;
  }
}
