// A run the engine holds in memory while it drives it: its model (the fold of its log) and the
// scheduler's work lists (steps to check, ready, due, results to record, actions to apply).
import type { ArtifactStore } from '../artifacts/artifact-store.ts';
import type { PolicySnapshot } from '../../shared/policy/policy-schema.ts';
import type { StepKind } from '../../shared/definition/names.ts';
import type { Step, Workflow } from '../../shared/definition/workflow-schema.ts';
import type { AttemptResult, Executor, PartialSoFar } from '../executors/executor.ts';
import type { RunDebugSettings } from '../../shared/events/run-event.ts';
import type { Store } from '../store/store.ts';
import type { Clock, Random } from '../time/clock.ts';
import type { PriceTable } from '../../shared/cost/price-table.ts';
import type { TrustCheck } from './workspace-workflows.ts';
import { indexDefinition, type DefinitionIndex } from '../../shared/run/definition-index.ts';
import type { Evidence, RunModel } from '../../shared/run/run-model.ts';

export type { ArtifactStore };

export interface EngineOptions {
  store: Store;
  clock: Clock;
  random: Random;
  executors: Partial<Record<StepKind, Executor>>;
  /** Called when a tick throws: the engine cannot go on safely (for example the disk is full). */
  onFatal?: (error: unknown) => void;
  /** Refuses child workflows that would run code from an untrusted workspace (none: no check, as in scenarios). */
  workspaceTrust?: TrustCheck;
  /**
   * The price table of a run's workspace (docs/cost.md), read when an attempt's end is recorded to
   * fix its cost; none: attempts record only the costs their executor or step declares.
   */
  prices?: (workspaceDir: string) => PriceTable | undefined;
  /**
   * Where large and sensitive values are kept by reference (docs/long-running.md); none: in
   * memory, for stores without a file (scenarios, replays).
   */
  artifacts?: ArtifactStore;
  /** A step output whose JSON is over this many bytes is stored by reference (default DEFAULT_ARTIFACT_THRESHOLD, 8 MiB). */
  artifactThreshold?: number;
  /** Set when the engine shares its store with others (workers on PostgreSQL: docs/scale-out.md). */
  shared?: SharedStore;
}

/** What an engine sharing its store with other engines does besides driving runs (engine/host/worker-host.ts). */
export interface SharedStore {
  /** Takes an unfinished run before it is loaded (to act on it); throws when another live engine drives it. */
  acquire(runId: string): void;
  /** False once this engine may have lost its runs (its heartbeat lapsed): it starts no attempt, and stops. */
  mayLaunch(): boolean;
  /**
   * An intake engine (`weft serve --no-worker`) starts no attempt: every run it writes is given
   * back to the workers once nothing of it is in flight.
   */
  intake?: boolean;
  /**
   * Gives back runs after a commit (run-release.ts decides which: all of an intake's, a worker's
   * that only wait); they are forgotten here. None: the engine keeps every run it holds.
   */
  release?(runs: readonly ReleasedRun[]): void;
  /**
   * limits.concurrency across every engine of the store: takes a slot of the resource's pool for
   * one step activation, or answers false when `limit` are taken (the attempt queues, and tries
   * again when retrySlots() is called).
   */
  takeSlot?(slot: SharedSlot, limit: number): boolean;
  /** Frees the slot in the commit that records the attempt's end. */
  releaseSlot?(slot: SharedSlot): void;
  /** Asks the engines holding these runs to look again at what they wait for (engine-core acquire). */
  poke?(runIds: readonly string[]): void;
}

/** A run given back to a shared store (run-release.ts): when it should be taken up again (ms since the epoch), or null: when someone acts on it. */
export interface ReleasedRun {
  runId: string;
  wakeAt: number | null;
}

/** One step activation's place in a resource's pool, shared by the store's engines. */
export interface SharedSlot {
  pool: string;
  runId: string;
  stepId: string;
  activation: number;
}

/** How an attempt ended, waiting to be recorded in the run's next tick. */
export interface Completion {
  stepId: string;
  activation: number;
  attempt: number;
  result: AttemptResult;
}

/** An executor attempt to start once the tick that recorded its start is committed. */
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
  /** The step's latest partial attempt (shared/run/partial-so-far.ts): what it did and what remains, for this one to continue. */
  partial?: PartialSoFar | undefined;
  /** An agent step with candidates: the one chosen for this attempt (attempt-route.ts). */
  candidate?: { id: string; use: number } | undefined;
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
  /** When each timer armed through RunPort.arm is due (a run given back to a shared store is taken up again then). */
  dues: Map<string, number>;
  /**
   * The run's one timer for its policy's escalations after time (policy-escalation.ts), armed for
   * the earliest deadline of its unfinished steps: a step's attempt arms it only when its own is
   * earlier (most steps finish long before their deadline).
   */
  escalations: { timer: { at: number; cancel: () => void } | undefined };
  /** What the run has spent, by step, in millionths (run-spend.ts): kept as events are folded, undefined until asked. */
  spent: { micros: number; byStep: Map<string, number> } | undefined;
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
  /** The activation of each step that waited when an engine recovered the run (recover()): its revalidate check runs as it resumes (revalidation.ts). */
  restartedWaits: Map<string, number>;
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
  /** The most the run may spend (the start's budget, docs/budgets.md); the smallest of it, limits.budget and the policy's perRun applies. */
  budget?: number;
  /** Idempotency key of run creation; the caller checks the store for an earlier run with it. */
  key?: string;
  /** The subworkflow or map step this run is a child of. */
  parent?: { runId: string; stepId: string; activation: number; attempt: number; index?: number };
  /** The workspace policy the run starts under (a child run gets its parent's); none: no policy. */
  policy?: PolicySnapshot | undefined;
  /** Makes it a debug run: breakpoints and pinned outputs (checked by the caller against the definition). */
  debug?: RunDebugSettings;
}

export function newLiveRun(model: RunModel): LiveRun {
  return {
    model,
    index: indexDefinition(model.workflow),
    dirty: new Set(),
    ready: [],
    inbox: [],
    due: [],
    running: new Map(),
    timers: new Map(),
    escalations: { timer: undefined },
    dues: new Map(),
    spent: undefined,
    touched: new Set(),
    waiters: [],
    runInfo: undefined,
    restartedWaits: new Map(),
    actions: [],
    busy: false,
    parentNotified: false,
    childItems: new Map(),
    holding: new Set(),
    stepRows: model.lastSeq > 0,
  };
}
