// What the compare view highlights, worked out from a RunComparison alone (pure, so it is tested
// without a browser): which cells of a step row differ, a step's field diffs, and what each side's
// cells say. What a step did comes from its attempts (ran, lastAttempt), never from its state: a
// step that ran in an earlier pass and that the latest pass went past reads "failed then skipped".
import type { ComparedStep, ComparedStepSide, FieldDifference } from '../../../shared/api/run-comparison.ts';
import { sideLabel as sharedLabel } from '../../../shared/run/compared-step-side.ts';

/** The cells of a step row that are highlighted. */
export interface RowMarks {
  state: boolean;
  duration: boolean;
}

/**
 * The state cells when the step settled differently or ran in one run only (a step that ran in
 * both but left by other edges shows that in its "differs" cell, not in its equal states); the
 * durations when both ran and took different whole seconds (milliseconds of jitter are not news).
 */
export function rowMarks(step: ComparedStep): RowMarks {
  const reached = (side: ComparedStepSide | null): boolean => side?.reached ?? false;
  const state = step.differs.includes('outcome') || reached(step.a) !== reached(step.b);
  const da = durationOf(step.a);
  const db = durationOf(step.b);
  const duration = da !== null && db !== null && Math.floor(da / 1000) !== Math.floor(db / 1000);
  return { state, duration };
}

/** The time a side's attempts took; null for a step that did not run (whatever its state says), or one still running. */
export function durationOf(side: ComparedStepSide | null): number | null {
  return side === null || !side.ran ? null : side.durationMs;
}

/** The input and output fields that differ at a step that ran in both runs, as the server listed them, with how many there are. */
export function stepFieldDiffs(step: ComparedStep): { input: FieldDifference[]; output: FieldDifference[]; inputTotal: number; outputTotal: number } {
  return step.fields;
}

/** What the state cell says: the outcome once settled, the state before, what a step the latest pass went past did; "not reached". */
export function sideLabel(side: ComparedStepSide | null): string {
  if (side !== null && !side.reached && side.state === 'blocked') return 'not reached';
  return sharedLabel(side);
}

/**
 * The state cell in parts: the word coloured as a state (`state`, for its colour), and what
 * followed in the latest pass ("then skipped"), shown quieter; `quiet` when the step was not reached.
 */
export function stateCell(side: ComparedStepSide | null): { word: string; state: string; then: string | null; quiet: boolean } {
  const label = sideLabel(side);
  if (side === null || !side.reached) return { word: label, state: side?.state ?? 'blocked', then: null, quiet: true };
  const [word = label, ...rest] = label.split(' then ');
  const state = label === 'withdrawn' ? 'cancelled' : rest.length > 0 ? (side.lastAttempt ?? side.state) : (side.outcome ?? side.state);
  return { word, state, then: rest.length > 0 ? `then ${rest.join(' then ')}` : null, quiet: false };
}
