// What the compare view highlights, worked out from a RunComparison alone (pure, so it is tested
// without a browser): which cells of a step row differ, and a step's field diffs on demand.
import type { ComparedStep, ComparedStepSide, FieldDifference } from '../../../shared/api/run-comparison.ts';
import { jsonDiff } from '../../../shared/run/json-diff.ts';

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
  const ran = (side: ComparedStepSide | null): boolean => (side?.activations ?? 0) > 0;
  const state = step.differs.includes('outcome') || ran(step.a) !== ran(step.b);
  const da = step.a?.durationMs ?? null;
  const db = step.b?.durationMs ?? null;
  const duration = da !== null && db !== null && Math.floor(da / 1000) !== Math.floor(db / 1000);
  return { state, duration };
}

/** The input and output fields that differ at a step that ran in both runs. */
export function stepFieldDiffs(step: ComparedStep): { input: FieldDifference[]; output: FieldDifference[] } {
  if (step.a === null || step.b === null) return { input: [], output: [] };
  return { input: jsonDiff(step.a.input, step.b.input), output: jsonDiff(step.a.output, step.b.output) };
}

/** What the state cell says: the outcome once settled, the state before; not reached in brackets. */
export function sideLabel(side: ComparedStepSide | null): string {
  if (side === null) return 'not in version';
  if (side.activations === 0) return side.state === 'blocked' ? 'not reached' : side.state;
  return side.outcome ?? side.state;
}
