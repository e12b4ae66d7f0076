// One step of one run as the comparison of two runs sees it: whether it ran and whether it is on
// the run's path, where it went, what the attempt that decided it was given and gave back, and the
// time its attempts took. What a step did is read from its attempts, never from its state: a step
// that ran in an earlier pass (a loop, or before a revision or an operator's retry) and that the
// latest pass went past reads `skipped`, and still ran.
import type { ComparedStepSide } from '../api/run-comparison.ts';
import type { AttemptDetail, RunDetail, StepDetail } from '../api/run-detail.ts';

/** A side with where its deciding attempt sits in the step's attempts (to address its values by path). */
export interface SideWithAttempt {
  side: ComparedStepSide;
  /** The index of the deciding attempt in the step's `attempts`; undefined when it has none. */
  attemptIndex: number | undefined;
}

/** States of a step that is due now in the latest pass: on the path although it has not settled. */
const DUE = new Set(['ready', 'running', 'retry_wait', 'waiting', 'compensating']);

/**
 * Each step of the run as the comparison sees it, by id (a step the run's version lacks is not
 * in the map). The deciding attempt is the one whose evidence the step holds, else its last
 * attempt (a failure).
 *
 * @example
 * comparedStepSides(detail).get('verify')?.side; // { ran: true, lastAttempt: 'failed', durationMs: 412, ... }
 */
export function comparedStepSides(run: RunDetail): Map<string, SideWithAttempt> {
  const next = new Map<string, Set<string>>();
  for (const e of run.edges) {
    if (!e.taken) continue;
    const targets = next.get(e.from) ?? new Set<string>();
    targets.add(e.to);
    next.set(e.from, targets);
  }
  return new Map(run.steps.map((step) => [step.id, sideOf(step, [...(next.get(step.id) ?? [])].sort())]));
}

function sideOf(step: StepDetail, next: string[]): SideWithAttempt {
  const found = step.attempts.findIndex((a) => a.id === step.evidence?.attempt);
  const attemptIndex = found >= 0 ? found : step.attempts.length > 0 ? step.attempts.length - 1 : undefined;
  const deciding = attemptIndex === undefined ? undefined : step.attempts[attemptIndex];
  const last = step.attempts[step.attempts.length - 1];
  const ran = last !== undefined;
  const { startedAtMs, endedAtMs } = span(step.attempts);
  const side: ComparedStepSide = {
    state: step.state,
    outcome: step.outcome,
    attempts: step.attempts.length,
    activations: step.activation,
    ran,
    reached: ran || settledWithoutAttempt(step) || DUE.has(step.state),
    lastAttempt: last?.state ?? null,
    ...(step.passedOver === undefined ? {} : { passedOver: true as const }),
    next,
    attempt: deciding?.id ?? null,
    ...(deciding === undefined ? {} : { input: deciding.input }),
    ...(deciding?.output === undefined ? {} : { output: deciding.output }),
    ...(deciding?.route?.chosen == null ? {} : { candidate: deciding.route.chosen }),
    error: deciding?.error ?? null,
    startedAtMs,
    endedAtMs,
    durationMs: ran ? activationTime(step.attempts) : null,
  };
  return { side, attemptIndex };
}

/**
 * Settled in its current activation with an outcome of its own but no attempt of that activation:
 * by an operator's skip or resolve, or by evidence a revision or a fork reused.
 */
function settledWithoutAttempt(step: StepDetail): boolean {
  if (step.outcome === null || step.outcome === 'skipped' || step.outcome === 'cancelled') return false;
  return !step.attempts.some((a) => a.activation === step.activation);
}

/** From the first attempt's start to the last one's end; the end is null while one is still going. */
function span(attempts: readonly AttemptDetail[]): { startedAtMs: number | null; endedAtMs: number | null } {
  if (attempts.length === 0) return { startedAtMs: null, endedAtMs: null };
  const ends = attempts.map((a) => a.endedAtMs);
  const endedAtMs = ends.some((e) => e === null) ? null : Math.max(...ends.map((e) => e ?? 0));
  return { startedAtMs: Math.min(...attempts.map((a) => a.startedAtMs)), endedAtMs };
}

/** Each activation's span (first attempt's start to last attempt's end), added up; null while one goes on. */
function activationTime(attempts: readonly AttemptDetail[]): number | null {
  const byActivation = new Map<number, AttemptDetail[]>();
  for (const a of attempts) byActivation.set(a.activation, [...(byActivation.get(a.activation) ?? []), a]);
  let total = 0;
  for (const group of byActivation.values()) {
    const { startedAtMs, endedAtMs } = span(group);
    if (startedAtMs === null || endedAtMs === null) return null;
    total += endedAtMs - startedAtMs;
  }
  return total;
}

/**
 * What a side did, in a few words, for the CLI's table and the app's cells: the outcome of its
 * latest pass (or its state while it goes on); for a step that ran but that the latest pass went
 * past, how it settled "then passed over" (a log written before passed-over steps: what its last
 * attempt came to "then skipped"), or "then not reached" when a new pass has
 * not come to it yet); "withdrawn" for a step whose last attempt was cut off when it was skipped
 * (a task nobody needed any more); and for a step not reached, its state (`skipped`, `blocked`).
 *
 * @example
 * sideLabel(side); // 'succeeded', 'succeeded then passed over', 'failed then skipped', 'withdrawn', 'skipped', 'not in version'
 */
export function sideLabel(side: ComparedStepSide | null): string {
  if (side === null) return 'not in version';
  if (!side.reached) return side.state;
  // Settled, then the latest pass went past it: how it settled, and that it is off the path now.
  if (side.passedOver === true) return `${side.outcome ?? side.state} then passed over`;
  const past = side.state === 'skipped' || side.state === 'blocked';
  if (!past) return side.outcome ?? side.state;
  if (side.lastAttempt === null) return side.state;
  if (side.lastAttempt === 'cancelled') return 'withdrawn';
  return `${side.lastAttempt} then ${side.state === 'blocked' ? 'not reached' : 'skipped'}`;
}
