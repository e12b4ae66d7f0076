// The run's restart record in words: for each step, its state, the evidence the run holds for
// it (and what that covers), and what may be done next and why: the same record the engine
// restarts from, and the same permitted actions it checks an action against. A step off the
// run's path (passed over, superseded) is marked beside its state; evidence whose effect a
// compensation undid says by which step.
import { memo } from 'react';
import type { RunDetail } from '../../../shared/api/run-detail.ts';
import type { RunSelection } from './step-detail.tsx';
import { pathMark } from '../../graph/path-mark.ts';
import { pausedStepNext } from '../actions/debug-words.ts';
import './revalidation.css';
import { TimesInText } from '../../core/when.tsx';
import { stepAmountText } from '../../../shared/cost/run-cost.ts';

const MARK_TEST_ID = { 'passed-over': 'record-passed-over', superseded: 'record-superseded', 'ran-before': 'record-ran-before' } as const;

interface Props {
  detail: RunDetail;
  selected: string | null;
  onSelect(selection: RunSelection): void;
}

function RestartRecordViewImpl({ detail, selected, onSelect }: Props) {
  return (
    <ol className="restart-record" data-testid="restart-record" aria-label="restart record">
      {detail.steps.map((s) => {
        const mark = pathMark(s);
        const offsetBy = s.evidence?.offsetBy;
        const cost = detail.cost.steps[s.id];
        return (
          <li key={s.id} data-testid={`record-step-${s.id}`} data-state={s.state} data-path={mark?.kind}>
            <button type="button" className="rr-row" aria-pressed={s.id === selected} onClick={() => onSelect({ stepId: s.id, attemptId: null })}>
              <span className="rr-line">
                <span className="mono rr-id">{s.id}</span>
                <span className="state" data-state={s.state}>
                  {s.state.replace('_', ' ')}
                </span>
                {mark !== null ? (
                  <span className="path-chip" data-path={mark.kind} title={mark.title} data-testid={`${MARK_TEST_ID[mark.kind]}-${s.id}`}>
                    {mark.label}
                  </span>
                ) : null}
                {(s.attemptCount ?? s.attempts.length) > 1 ? <span className="faint">{(s.attemptCount ?? s.attempts.length).toLocaleString('en')} attempts</span> : null}
                {s.escalated ? <span className="rr-flag">needs a person</span> : null}
                {s.revalidation !== undefined ? (
                  <span className="rr-reval" data-verdict={s.revalidation.verdict} data-testid={`record-revalidation-${s.id}`} title={`re-checked after ${s.revalidation.trigger}: ${s.revalidation.why}`}>
                    re-checked: {s.revalidation.verdict}
                  </span>
                ) : null}
                {cost !== undefined ? (
                  <span className="rr-cost" data-testid={`record-cost-${s.id}`} title="what the step's attempts cost">
                    {stepAmountText(cost, detail.cost.currency)}
                  </span>
                ) : null}
              </span>
              <span className="rr-words">
                {s.evidence !== null && (offsetBy !== undefined || !s.next.includes(s.evidence.id)) ? (
                  <>
                    Holds {s.evidence.pinned === true ? 'pinned ' : ''}evidence <span className="mono">{s.evidence.id}</span> for input <span className="mono">{s.evidence.covers.inputHash.slice(0, 8)}</span> (v
                    {s.evidence.covers.definitionVersion}, revision {s.evidence.covers.inputRevision})
                    {offsetBy !== undefined ? (
                      <span data-testid={`record-offset-${s.id}`}>
                        ; its effect was undone by <span className="mono">{offsetBy}</span>, so it no longer counts as done
                      </span>
                    ) : null}
                    .{' '}
                  </>
                ) : s.evidence === null ? (
                  'No evidence yet. '
                ) : null}
                <TimesInText text={pausedStepNext(detail.run.debug, s.id, 'short') ?? s.next} />
              </span>
              {s.permittedActions.length > 0 ? (
                <span className="rr-actions">
                  {s.permittedActions.map((p) => (
                    <span key={p.action} className="permitted-chip" title={p.why}>
                      {p.action}
                    </span>
                  ))}
                </span>
              ) : null}
            </button>
          </li>
        );
      })}
    </ol>
  );
}

export const RestartRecordView = memo(RestartRecordViewImpl);
