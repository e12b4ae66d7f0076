// A partial attempt in the step detail (docs/long-running.md#partial-completion): a note that the
// attempt finished part of its work, that its output is that part and that the attempt after it
// continues from there, and the reference to what remains as its executor gave it.
import { PieChart } from 'lucide-react';
import type { AttemptDetail } from '../../../shared/api/run-detail.ts';
import { ValueView } from './value-view.tsx';
import './attempt-partial.css';

export function AttemptPartial({ attempt, runId, base, continuedBy }: { attempt: AttemptDetail; runId: string; base: string; continuedBy: string | null }) {
  return (
    <div className="rsd-partial" role="note" data-testid="attempt-partial">
      <div className="rsd-partial-head">
        <PieChart size={13} aria-hidden="true" />
        <span className="rsd-partial-title">Partly done</span>
      </div>
      <p className="rsd-partial-text">
        The executor finished part of the work: the output below is the part done.{' '}
        {continuedBy === null ? 'A retry continues from it instead of starting over.' : <>Attempt <span className="mono">{continuedBy}</span> continued from it.</>}
      </p>
      {attempt.remaining !== undefined ? (
        <div className="rsd-partial-remaining">
          <span className="rsd-partial-label">Remaining</span>
          <ValueView value={attempt.remaining} runId={runId} valuePath={`${base}.remaining`} label={`what remains after ${attempt.id}`} testId="attempt-remaining" />
        </div>
      ) : null}
    </div>
  );
}
