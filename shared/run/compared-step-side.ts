// One step of one run as the comparison of two runs sees it: reached or not, where it went, what
// the attempt that decided it was given and gave back, and when it ran.
import type { ComparedStepSide } from '../api/run-comparison.ts';
import type { RunDetail, StepDetail } from '../api/run-detail.ts';

/**
 * Each step of the run as the comparison sees it, by id (a step the run's version lacks is not
 * in the map). The deciding attempt is the one whose evidence the step holds, else its last
 * attempt (a failure).
 */
export function comparedStepSides(run: RunDetail): Map<string, ComparedStepSide> {
  const next = new Map<string, Set<string>>();
  for (const e of run.edges) {
    if (!e.taken) continue;
    const targets = next.get(e.from) ?? new Set<string>();
    targets.add(e.to);
    next.set(e.from, targets);
  }
  return new Map(run.steps.map((step) => [step.id, sideOf(step, [...(next.get(step.id) ?? [])].sort())]));
}

function sideOf(step: StepDetail, next: string[]): ComparedStepSide {
  const deciding = step.attempts.find((a) => a.id === step.evidence?.attempt) ?? step.attempts[step.attempts.length - 1];
  const { startedAtMs, endedAtMs } = times(step);
  return {
    state: step.state,
    outcome: step.outcome,
    attempts: step.attempts.length,
    activations: step.activation,
    next,
    ...(deciding === undefined ? {} : { input: deciding.input }),
    ...(deciding?.output === undefined ? {} : { output: deciding.output }),
    error: deciding?.error ?? null,
    startedAtMs,
    endedAtMs,
    durationMs: startedAtMs === null || endedAtMs === null ? null : endedAtMs - startedAtMs,
  };
}

/** From the first attempt's start to the last one's end; the end is null while one is still going. */
function times(step: StepDetail): { startedAtMs: number | null; endedAtMs: number | null } {
  const first = step.attempts[0];
  if (first === undefined) return { startedAtMs: null, endedAtMs: null };
  const ends = step.attempts.map((a) => a.endedAtMs);
  const endedAtMs = ends.some((e) => e === null) ? null : Math.max(...ends.map((e) => e ?? 0));
  return { startedAtMs: Math.min(...step.attempts.map((a) => a.startedAtMs)), endedAtMs };
}
