// A revision plan as a table: each step in graph order with what the revision does to it and why,
// external steps marked, what a step billed again last cost beside its action, and a one-line
// count on top.
import { REVISE_PLANS, type RevisePlan, type RevisePlanAction } from '../../../shared/api/input-commands.ts';
import type { RunDetail } from '../../../shared/api/run-detail.ts';
import { isExternal } from './run-facts.ts';
import { formatCost } from '../../../shared/cost/run-cost.ts';

const WORDS: Record<RevisePlanAction, string> = {
  rerun: 'runs again',
  reuse: 'reuses evidence',
  keep: 'keeps evidence',
  ask: 'waits for a decision',
  carry: 'stays unknown',
  later: 'decided later',
};

export function RevisePlanTable({ detail, plan }: { detail: RunDetail; plan: RevisePlan }) {
  const counts = plan.plan.reduce<Partial<Record<RevisePlanAction, number>>>((c, p) => ({ ...c, [p.action]: (c[p.action] ?? 0) + 1 }), {});
  const billed = new Map((plan.rebill?.steps ?? []).map((b) => [b.stepId, b.estimate === null ? 'cost unknown' : formatCost(b.estimate, plan.rebill?.currency ?? 'USD')]));
  const summary = REVISE_PLANS.flatMap((a) => (counts[a] === undefined ? [] : [`${counts[a]} ${WORDS[a]}`]));
  return (
    <div className="action-section" data-testid="revise-plan">
      <p className="plan-summary">
        Revision {plan.inputRevision}: {summary.length === 0 ? 'no step is affected' : summary.join(' · ')}.
      </p>
      {plan.plan.length > 0 ? (
        <table className="plan-table">
          <thead>
            <tr>
              <th>Step</th>
              <th>Plan</th>
              <th>Why</th>
            </tr>
          </thead>
          <tbody>
            {plan.plan.map((p) => (
              <tr key={p.stepId} data-testid={`plan-${p.stepId}`}>
                <td>
                  <span className="mono">{p.stepId}</span> {isExternal(detail, p.stepId) ? <span className="effect-external">external</span> : null}
                </td>
                <td>
                  <span className="plan-action" data-plan={p.action}>
                    {p.action}
                  </span>
                  {billed.has(p.stepId) ? (
                    <span className="plan-cost" data-testid={`plan-cost-${p.stepId}`} title="billed again: what its last attempt cost">
                      {billed.get(p.stepId)}
                    </span>
                  ) : null}
                </td>
                <td>
                  {p.reason}
                  {p.evidenceId !== undefined ? <span className="faint"> · evidence <span className="mono">{p.evidenceId}</span></span> : null}
                  {p.after !== undefined ? <span className="faint"> · after {p.after.join(', ')}</span> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
