// The step that went wrong in a run: the one the run page opens at and the one its header names.
// A failure route often leads to an end step (`write` failed, so the run reached `write_failed`),
// and the engine records the run as failing at that end step; but the cause is the step before
// it, so both the page and the header name the step that failed, is unknown, or waits on a
// person, and say which end step the failure led to.
import type { RunDetail } from '../../../shared/api/run-detail.ts';

export interface WrongStep {
  stepId: string;
  /** What happened there, in a few words: the error's code, else the step's state. */
  what: string;
  /** The whole story, for a title: the error's message, else the engine's reason. */
  more: string;
  /** The step the engine records the run as failing at, when it is another one (an end step the failure led to). */
  ledTo: string | null;
}

/**
 * The step that went wrong: the first step (in the definition's order) that failed, is unknown
 * or waits on a person, else the step the run is failing at; null when nothing went wrong.
 */
export function wrongStep(detail: Pick<RunDetail, 'run' | 'steps'>): WrongStep | null {
  const failing = detail.run.failing;
  const failingAt = failing?.stepId ?? null;
  const step = detail.steps.find((s) => s.state === 'failed' || s.state === 'unknown' || s.escalated) ?? detail.steps.find((s) => s.id === failingAt);
  if (step === undefined) return failingAt === null ? null : { stepId: failingAt, what: 'failing', more: failing?.reason ?? '', ledTo: null };
  const error = step.attempts.at(-1)?.error ?? null;
  const state = step.state === 'unknown' ? 'outcome unknown' : step.escalated && step.state !== 'failed' ? 'needs a person' : step.state.replace('_', ' ');
  return {
    stepId: step.id,
    what: error === null ? state : `${state}: ${error.code}`,
    more: error?.message ?? failing?.reason ?? '',
    ledTo: failingAt !== null && failingAt !== step.id ? failingAt : null,
  };
}
