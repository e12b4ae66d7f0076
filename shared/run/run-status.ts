// The state a run should be in, derived from its steps: running, waiting, paused, needs
// attention, or one of the terminal states succeeded, failed, cancelled.
import { isFinishedRunState, type RunState } from '../definition/names.ts';
import type { RunModel } from './run-model.ts';

const ACTIVE_STEP_STATES = new Set(['ready', 'running', 'retry_wait']);

export function isTerminal(state: RunState): boolean {
  return isFinishedRunState(state);
}

/** True when no step is ready, running or waiting to retry: only people, events or timers remain. */
export function isQuiet(run: RunModel): boolean {
  for (const s of run.steps.values()) if (ACTIVE_STEP_STATES.has(s.state)) return false;
  return true;
}

export function desiredRunState(run: RunModel): { state: RunState; reason: string } {
  const escalated = [...run.steps.values()].filter((s) => s.escalated);
  if (escalated.length > 0) {
    return { state: 'needs_attention', reason: `${escalated.map((s) => `"${s.id}" (${s.outcome ?? s.state})`).join(', ')} ${escalated.length === 1 ? 'needs' : 'need'} a person` };
  }
  if (!isQuiet(run)) return { state: 'running', reason: 'steps are ready or running' };
  const waiting = [...run.steps.values()].filter((s) => s.state === 'waiting');
  if (waiting.length > 0) return { state: 'waiting', reason: `waiting on ${waiting.map((s) => `"${s.id}"`).join(', ')}` };
  const failedEnd = run.endsReached.find((e) => e.status === 'failed');
  if (failedEnd) return { state: 'failed', reason: `reached end step "${failedEnd.stepId}" (status failed)` };
  const end = run.endsReached[0];
  if (end) return { state: 'succeeded', reason: `reached end step "${end.stepId}"` };
  return { state: 'failed', reason: 'no step can run and no end step was reached' };
}
