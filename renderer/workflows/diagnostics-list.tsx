// The findings of the validator as a list: severity, code, step, message and hint.
import type { Diagnostic } from '../api/api-types.ts';

export function Diagnostics({ diagnostics }: { diagnostics: readonly Diagnostic[] }) {
  if (diagnostics.length === 0) return <p className="muted" style={{ margin: 0 }}>No problems found.</p>;
  return (
    <div data-testid="diagnostics">
      {diagnostics.map((d, i) => (
        <div key={`${d.code}-${i}`} className="diag">
          <span>
            <span className={`badge ${d.severity === 'error' ? 'badge-error' : 'badge-warning'}`}>{d.severity}</span>{' '}
            <span className="diag-code">{d.code}</span>
            {d.stepId ? <span className="faint mono"> · {d.stepId}</span> : null}
          </span>
          <span>{d.message}</span>
          {d.hint ? <span className="faint">{d.hint}</span> : null}
        </div>
      ))}
    </div>
  );
}
