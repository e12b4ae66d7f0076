// Whether a step of a run is on the run's current path, in one place for the graph, the step
// detail and the restart record (issue 19): a step that did work and is no longer on the path
// keeps its state (succeeded, reached, failed) and is marked beside it, never shown as a bare
// "skipped". Passed over: settled, and no edge into it is taken any more (a later loop pass or an
// operator's re-decision took another way). Superseded: an operator's retry, skip or resolve
// upstream is re-deciding what led to it. Ran before: skipped now, after an earlier activation
// that did work.
import type { StepView } from '../../shared/api/restart-record.ts';

export type PathMarkKind = 'passed-over' | 'superseded' | 'ran-before';

export interface PathMark {
  kind: PathMarkKind;
  /** The chip's words: "passed over", "superseded", "ran before". */
  label: string;
  /** The whole story in one line (the chip's title): what the step did and why it no longer counts. */
  title: string;
}

/** The fields of a step (restart record or RunDetail) the mark is read from. */
export type PathMarkStep = Pick<StepView, 'state' | 'next' | 'passedOver' | 'superseded' | 'attempts'>;

const DID_WORK: ReadonlySet<string> = new Set(['succeeded', 'failed', 'unknown']);

/**
 * The mark of a step, or null when it is on the path (or never did anything). The title is the
 * engine's own sentence (the restart record's `next`) when it tells this story, so the graph, the
 * record and `weft inspect` say the same words; else it is made from the structured fields.
 */
export function pathMark(step: PathMarkStep): PathMark | null {
  if (step.passedOver !== undefined) {
    const after = step.superseded === undefined ? '' : ` (after the ${step.superseded.cause})`;
    return { kind: 'passed-over', label: 'passed over', title: step.next.startsWith('passed over:') ? step.next : `passed over: ${step.state}, then ${step.passedOver.reason}${after}` };
  }
  if (step.superseded !== undefined) {
    const s = step.superseded;
    return { kind: 'superseded', label: 'superseded', title: step.next.startsWith('superseded:') ? step.next : `superseded: ${s.outcome} in activation ${s.activation}; the ${s.cause} re-decides what led to it` };
  }
  if (step.state === 'skipped' && step.attempts.some((a) => DID_WORK.has(a.state))) {
    const last = [...step.attempts].reverse().find((a) => DID_WORK.has(a.state));
    return { kind: 'ran-before', label: 'ran before', title: last === undefined ? step.next : `skipped now; it ran before: attempt ${last.id} ${last.state}. ${step.next}` };
  }
  return null;
}
