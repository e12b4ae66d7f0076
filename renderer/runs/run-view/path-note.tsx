// Under a step's heading in the step detail: why a step that did work no longer counts on the
// run's path (passed over after a loop pass or an operator's re-decision, or superseded while an
// operator's action upstream is decided again), and that what it did stays on record.
import { History, RouteOff } from 'lucide-react';
import type { StepView } from '../../../shared/api/restart-record.ts';
import { pathMark } from '../../graph/path-mark.ts';

interface Props {
  step: Pick<StepView, 'state' | 'next' | 'passedOver' | 'superseded' | 'attempts'>;
  /** An end step: "reached", and it no longer ends the run. */
  isEnd: boolean;
}

export function PathNote({ step, isEnd }: Props) {
  const mark = pathMark(step);
  if (mark === null || mark.kind === 'ran-before') return null;
  const did = (outcome: string) => (isEnd && outcome === 'succeeded' ? 'reached' : outcome.replace('_', ' '));
  if (mark.kind === 'passed-over' && step.passedOver !== undefined) {
    const sup = step.superseded;
    const last = step.attempts.at(-1);
    return (
      <div className="rsd-path-note" role="note" data-path="passed-over" data-testid="step-path-note">
        <RouteOff size={13} aria-hidden="true" />
        <span>
          <strong>Passed over</strong>, not on the run’s path now: {step.passedOver.reason}
          {sup === undefined ? '' : ` (after the ${sup.cause})`}. What it did stays on record: {did(step.state)}
          {last === undefined ? '' : ` in activation ${last.activation}`}
          {isEnd ? '; it does not end the run' : ''}.
        </span>
      </div>
    );
  }
  const sup = step.superseded;
  if (sup === undefined) return null;
  return (
    <div className="rsd-path-note" role="note" data-path="superseded" data-testid="step-path-note">
      <History size={13} aria-hidden="true" />
      <span>
        <strong>Superseded</strong>: {did(sup.outcome)} in activation {sup.activation}; the {sup.cause} re-decides what led to it, so it is decided
        again{isEnd ? ' and does not end the run' : ''}. What it did stays on record.
      </span>
    </div>
  );
}
