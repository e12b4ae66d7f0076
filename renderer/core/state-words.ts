// A state in a sentence: "the run has failed", "the step was skipped", "the run needs attention";
// never "the run is succeeded". One table per kind of state, so a new state is a compile error
// here rather than a sentence that does not read.
import type { RunState, StepState } from '../../shared/definition/names.ts';

const RUN: Readonly<Record<RunState, string>> = {
  running: 'is running',
  waiting: 'is waiting',
  paused: 'is paused',
  needs_attention: 'needs attention',
  succeeded: 'has succeeded',
  failed: 'has failed',
  cancelled: 'was cancelled',
};

const STEP: Readonly<Record<StepState, string>> = {
  blocked: 'is blocked',
  ready: 'is ready',
  running: 'is running',
  retry_wait: 'is waiting to retry',
  waiting: 'is waiting',
  succeeded: 'has succeeded',
  failed: 'has failed',
  unknown: 'has an unknown outcome',
  rejected: 'was rejected',
  skipped: 'was skipped',
  cancelled: 'was cancelled',
  compensating: 'is being compensated',
  compensated: 'was compensated',
};

const has = <K extends string>(table: Readonly<Record<K, string>>, key: string): key is K => Object.hasOwn(table, key);

/** The verb phrase that says a run or step is in `state`: "has failed", "is paused", "needs attention". */
export function stateWords(state: string, what: 'run' | 'step'): string {
  if (what === 'run' && has(RUN, state)) return RUN[state];
  if (what === 'step' && has(STEP, state)) return STEP[state];
  return `is ${state.replace(/_/g, ' ')}`;
}
