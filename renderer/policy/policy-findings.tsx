// The workflows of the workspace that break the saved policy (GET /api/policy's `workflows`), each
// with the steps at fault and a way into the editor, where the step shows the rule on its node.
import { ArrowRight } from 'lucide-react';
import type { PolicyFileView } from '../../shared/api/policy-file.ts';
import { useRoute } from '../core/route-store.ts';

export function PolicyFindings({ workflows }: { workflows: PolicyFileView['workflows'] }) {
  const go = useRoute((s) => s.go);
  return (
    <section className="policy-findings" aria-label="workflows that break the policy" data-testid="policy-findings">
      <h2 className="policy-rules-title">Workflows</h2>
      {workflows.length === 0 ? (
        <p className="policy-rules-note" data-testid="policy-findings-none">Every workflow of the workspace keeps the saved policy.</p>
      ) : (
        <ul>
          {workflows.map((w) => (
            <li key={w.file} data-testid={`policy-finding-${w.workflowId}`}>
              <div className="policy-finding-head">
                <span className="mono">{w.workflowId}</span>
                <span className="policy-finding-count">
                  {w.diagnostics.length} {w.diagnostics.length === 1 ? 'problem' : 'problems'}
                </span>
                <button type="button" className="link-button" onClick={() => go({ page: 'workflow', id: w.workflowId })}>
                  Open <ArrowRight size={12} aria-hidden="true" />
                </button>
              </div>
              <ul className="policy-finding-list">
                {w.diagnostics.slice(0, 4).map((d, i) => (
                  <li key={i}>
                    {d.stepId === undefined ? null : <code>{d.stepId}</code>} {d.message}
                  </li>
                ))}
                {w.diagnostics.length > 4 ? <li className="faint">and {w.diagnostics.length - 4} more</li> : null}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
