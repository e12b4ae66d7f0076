// An attempt's error as three lines: how the attempt ended, the error's code, and its message.
// Run together ("failedconnection refused") they read as one word; apart, the message wraps
// on its own and the code can be copied.
import { CircleAlert, CircleHelp } from 'lucide-react';
import type { AttemptDetail } from '../../../shared/api/run-detail.ts';

const ENDED: Record<AttemptDetail['state'], string> = {
  running: 'Still running',
  succeeded: 'Succeeded',
  failed: 'Failed',
  unknown: 'Outcome unknown',
  partial: 'Partly done',
  cancelled: 'Cancelled while it waited',
};

export function AttemptError({ state, error }: { state: AttemptDetail['state']; error: NonNullable<AttemptDetail['error']> }) {
  const Icon = state === 'unknown' ? CircleHelp : CircleAlert;
  return (
    <div className="rsd-error" role="note" data-testid="attempt-error" data-state={state}>
      <div className="rsd-error-head">
        <Icon size={13} aria-hidden="true" />
        <span className="rsd-error-outcome" data-testid="attempt-error-outcome">
          {ENDED[state]}
        </span>
        {/* A code that only repeats the outcome ("unknown") says nothing more. */}
        {error.code !== state && (
          <span className="rsd-error-code mono" data-testid="attempt-error-code" title="the error's code">
            {error.code}
          </span>
        )}
      </div>
      <p className="rsd-error-message" data-testid="attempt-error-message">
        {error.message}
      </p>
    </div>
  );
}
