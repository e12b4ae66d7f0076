// A handler runs the attempts of the step kinds that wait on something other than an executor:
// a timer (wait), a person (human), an event from outside (event), child runs (subworkflow, map).
// The scheduler core knows them only through this interface; each acts on runs through RunPort.
import type { Step } from '../../shared/definition/workflow-schema.ts';
import type { RunContext } from './expressions.ts';
import type { LiveRun } from './live-run.ts';
import type { AttemptRecord, StepRuntime } from '../../shared/run/run-model.ts';

export interface AttemptStart {
  number: number;
  input: unknown;
  config: Record<string, unknown>;
  ctx: RunContext;
}

export interface StepHandler {
  /** Starts the attempt whose attempt_started is written: opens a task, sets a timer, starts child runs... */
  start(live: LiveRun, s: StepRuntime, step: Step, attempt: AttemptStart): Promise<void>;
  /** The step's timer (a deadline, the end of a wait) came due while attempt `a` waits. */
  timerDue?(live: LiveRun, s: StepRuntime, step: Step, a: AttemptRecord): Promise<void>;
  /**
   * After a load, for a waiting step (on child runs, or on an event): catch up on what happened
   * while no engine listened (a child that ended, an event stored but never delivered).
   */
  resume?(live: LiveRun, stepId: string): Promise<void>;
  /** The run is cancelled: stop what the step waits on (its child runs). */
  stop?(live: LiveRun, s: StepRuntime, why: string): void;
}

/** A handler that hears when a run ends (the child-run handler tells the parent). */
export interface RunEndListener {
  runEnded(live: LiveRun): Promise<void>;
}
