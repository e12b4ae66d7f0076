// "These steps will be billed again": what a retry, fork or revision is about to pay for again,
// with what each step's last attempt cost (shared/cost/rebill.ts, the words `weft retry` prints),
// shown in the action's dialog and repeated in its confirmation when it is a known amount. A retry's and a fork's estimate
// is asked of the engine (GET /api/runs/:id/rebill); a revision's comes with its plan.
import { useQuery } from '@tanstack/react-query';
import { Coins } from 'lucide-react';
import type { RebillEstimate } from '../../../shared/cost/rebill-estimate.ts';
import type { RunDetail } from '../../../shared/api/run-detail.ts';
import { rebillStepText, rebillTotalText } from '../../../shared/cost/rebill.ts';
import type { RunActionsClient } from '../../api/run-actions-client.ts';
import { keys } from '../../core/query-keys.ts';

/** The estimate of a retry or fork of `detail`'s run from `stepId`; null until it is in (or when it cannot be made). */
export function useRebill(client: RunActionsClient, detail: RunDetail, action: 'retry' | 'fork', stepId: string): RebillEstimate | null {
  const q = useQuery({
    queryKey: keys.rebill(detail.run.id, action, stepId, detail.run.lastSeq),
    queryFn: () => client.rebill(detail.run.id, { action, step: stepId }),
    retry: false,
  });
  return q.data ?? null;
}

/** Whether the estimate has anything to warn about. */
export function billsAgain(e: RebillEstimate | null | undefined): e is RebillEstimate {
  return e !== null && e !== undefined && e.steps.length > 0;
}

/** "These steps will be billed again: draft ($0.012, last attempt), …, about $0.012." */
export function rebillSentence(e: RebillEstimate): string {
  return `These steps will be billed again: ${e.steps.map((s) => `${s.stepId} (${rebillStepText(s, e.currency)})`).join(', ')}, ${rebillTotalText(e)}.`;
}

/**
 * A dialog's confirmation: its own (external effects), then what it bills again when that is a
 * known amount (steps of unknown cost alone are a note in the dialog, not a second click); null
 * when neither.
 */
export function confirmText(own: string | null, e: RebillEstimate | null | undefined): string | null {
  const parts = [own, billsAgain(e) && e.upTo > 0 ? rebillSentence(e) : null].filter((x): x is string => x !== null);
  return parts.length === 0 ? null : parts.join(' ');
}

/** The warning in a dialog's body; nothing when the act bills nothing again. */
export function RebillWarning({ estimate }: { estimate: RebillEstimate | null | undefined }) {
  if (!billsAgain(estimate)) return null;
  return (
    <div className="rebill-warning" role="note" data-testid="rebill-warning">
      <Coins size={15} aria-hidden="true" />
      <div>
        <p className="rebill-head">
          These steps will be billed again: <strong data-testid="rebill-total">{rebillTotalText(estimate)}</strong>
        </p>
        <ul className="rebill-steps">
          {estimate.steps.map((s) => (
            <li key={s.stepId} data-testid={`rebill-${s.stepId}`}>
              <span className="mono">{s.stepId}</span>
              <span className="faint"> · {s.kind}</span>
              <span className="rebill-cost">{rebillStepText(s, estimate.currency)}</span>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
