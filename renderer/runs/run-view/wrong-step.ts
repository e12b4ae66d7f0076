// The step that went wrong in a run: the one the run page opens at and the one its header names.
// A failure route often leads to an end step (`write` failed, so the run reached `write_failed`),
// and the engine records the run as failing at that end step; but the cause is the step before
// it, so both the page and the header name the step that failed, is unknown, or waits on a
// person, and say which end step the failure led to.
import type { RunDetail } from '../../../shared/api/run-detail.ts';

export interface WrongStep {
  stepId: string;
  /** What happened there, in words: its state and its latest attempt's error. */
  what: string;
  /** The step the engine records the run as failing at, when it is another one (an end step the failure led to). */
  ledTo: string | null;
}

/**
 * The step that went wrong: the first step (in the definition's order) that failed, is unknown
 * or waits on a person, else the step the run is failing at; null when nothing went wrong.
 */
export function wrongStep(detail: Pick<RunDetail, 'run' | 'steps'>): WrongStep | null {
  const failingAt = detail.run.failing?.stepId ?? null;
  const step = detail.steps.find((s) => s.state === 'failed' || s.state === 'unknown' || s.escalated) ?? detail.steps.find((s) => s.id === failingAt);
  if (step === undefined) return failingAt === null ? null : { stepId: failingAt, what: detail.run.failing?.reason ?? '', ledTo: null };
  const error = step.attempts.at(-1)?.error ?? null;
  const state = step.state === 'unknown' ? 'outcome unknown' : step.state.replace('_', ' ');
  const what = step.id === failingAt && error === null ? (detail.run.failing?.reason ?? state) : `${state}${error === null ? '' : ` (${error.code}: ${error.message})`}`;
  return { stepId: step.id, what, ledTo: failingAt !== null && failingAt !== step.id ? failingAt : null };
}
