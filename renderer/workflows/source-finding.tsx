// One finding of a file, placed in its text: severity, code, line and column, JSON path, what is
// wrong and how to fix it, and the lines around it with the text it is about highlighted. The view
// of a file that does not parse and the list of an import's problems both show findings so.
import type { SourceFinding } from '../../shared/api/workflow-views.ts';
import { excerpt } from './source-excerpt.ts';
import './file-source.css';

export function SourceFindingView({ finding, text }: { finding: SourceFinding; text: string | null }) {
  const { diagnostic: d, at } = finding;
  const lines = text === null || at === null ? [] : excerpt(text, at);
  return (
    <section className="source-finding" data-testid="source-finding" data-code={d.code} aria-label={`${d.severity} ${d.code}`}>
      <div className="source-finding-head">
        <span className={`badge ${d.severity === 'error' ? 'badge-error' : 'badge-warning'}`}>{d.severity}</span>
        <span className="diag-code">{d.code}</span>
        {at !== null ? (
          <span className="source-where" data-testid="source-where">
            line {at.line}, column {at.column}
          </span>
        ) : null}
        {d.path !== '' && d.path !== '$' ? <span className="mono source-path">{d.path}</span> : null}
      </div>
      <p className="source-message">{d.message}</p>
      {d.hint !== '' ? <p className="source-hint">{d.hint}</p> : null}
      {lines.length > 0 ? (
        <pre className="source-excerpt" data-testid="source-excerpt" aria-label={`the file around line ${at?.line ?? ''}`}>
          {lines.map((l) => (
            <div key={l.number} className="source-line" data-focus={l.focus ? 'true' : undefined} data-testid={l.focus ? 'source-focus-line' : undefined}>
              <span className="source-line-number" aria-hidden="true">
                {l.number}
              </span>
              <code>
                {l.before}
                {l.marked !== '' || l.focus ? (
                  <mark className="source-mark" data-testid="source-mark">
                    {l.marked === '' ? ' ' : l.marked}
                  </mark>
                ) : null}
                {l.after}
              </code>
            </div>
          ))}
        </pre>
      ) : null}
    </section>
  );
}
