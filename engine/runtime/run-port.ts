// The narrow interface through which the parts of the engine (step handlers, operator actions,
// the attempt and routing logic) act on runs. The scheduler core implements it; no part sees the
// core itself, so each can be built and read alone: the engine is composed of parts behind
// narrow interfaces, not a chain of classes with abstract hooks.
import type { EventData, EventType, RunEvent, SettleOutcome } from '../../shared/events/run-event.ts';
import type { Store } from '../store/store.ts';
import type { Clock, Random } from '../time/clock.ts';
import type { RunContext } from './expressions.ts';
import type { Completion, LiveRun, StartRunOptions } from './live-run.ts';
import type { Evidence, StepRuntime } from '../../shared/run/run-model.ts';
import type { ArtifactStore } from '../artifacts/artifact-store.ts';
import type { ContextReads } from './run-context.ts';

export interface EventExtra {
  step?: string;
  activation?: number;
  attempt?: number;
  reason?: string;
}

export interface RunPort {
  readonly store: Store;
  readonly clock: Clock;
  readonly random: Random;
  /** Appends an event to the run's log and folds it into the run's model. */
  emit<T extends EventType>(live: LiveRun, type: T, data: EventData<T>, extra?: EventExtra): RunEvent<T>;
  /** Where values by reference are kept, and the output size over which an output is kept there. */
  readonly artifacts: { store: ArtifactStore; threshold: number };
  /**
   * What expressions read; `activation`, the evaluating step's, is what `$activation` gives.
   * References are read through (docs/long-running.md): sensitive values only with `reads.sensitive`
   * (a step that declares `readsSensitive`); `reads: 'raw'` leaves every reference as it is.
   */
  context(live: LiveRun, extra?: Record<string, unknown>, activation?: number, reads?: ContextReads): RunContext;
  /** Sets the step's timer (retry, deadline, wait): the step comes due at `dueAt`. */
  arm(live: LiveRun, stepId: string, dueAt: number): void;
  /** Cancels the step's pending timer, if any. */
  disarm(live: LiveRun, stepId: string): void;
  /** The run has work: a tick will advance it. */
  markDirty(live: LiveRun): void;
  /** Runs `act` inside the run's next tick; resolves once that tick's commit is written. */
  enqueue(live: LiveRun, act: () => Promise<void>): Promise<void>;
  /** The run, loaded from its log if this engine does not hold it; `log`: that log, if read already (Store.readRunLogs). */
  load(runId: string, log?: readonly RunEvent[]): LiveRun;
  /** The runs this engine holds in memory. */
  liveRuns(): Iterable<LiveRun>;
  startRun(opts: StartRunOptions): string;
  /** Records how an attempt ended, and routes the step on. */
  finish(live: LiveRun, c: Completion): Promise<void>;
  /** Settles the step's activation: decides its edges, and what else its outcome calls for. */
  settle(live: LiveRun, s: StepRuntime, outcome: SettleOutcome, reason: string, evidenceId?: string): Promise<void>;
  /** Settles the step with earlier evidence, now covering the current revision (reused, or kept). */
  reuseEvidence(live: LiveRun, s: StepRuntime, ev: Evidence, reason: string): Promise<void>;
}
