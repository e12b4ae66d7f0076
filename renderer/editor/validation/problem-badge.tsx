// The problems of one step or edge on the canvas: error and warning counts, every message on
// hover (title) and for screen readers (aria-label).
import { memo } from 'react';
import { AlertTriangle, XCircle } from 'lucide-react';
import type { Diagnostic } from '../../../shared/validator/diagnostic.ts';
import { countLabel, countSeverities } from './problem-filter.ts';
import './problems.css';

/** A tooltip past this many lines is cut, and says how many more there are. */
const MAX_TITLE_LINES = 12;

function describe(problems: readonly Diagnostic[], summary: string): string {
  const lines = problems.slice(0, MAX_TITLE_LINES).map((d) => `${d.severity === 'error' ? '✕' : '⚠'} ${d.message} (${d.code})`);
  if (problems.length > MAX_TITLE_LINES) lines.push(`… and ${problems.length - MAX_TITLE_LINES} more in the Problems panel`);
  return `${summary}\n${lines.join('\n')}`;
}

function ProblemBadgeView({ problems }: { problems: readonly Diagnostic[] }) {
  if (problems.length === 0) return null;
  const counts = countSeverities(problems);
  const summary = countLabel(counts);
  const title = describe(problems, summary);
  return (
    <span
      className="problem-badge"
      data-testid="problem-badge"
      data-severity={counts.errors > 0 ? 'error' : 'warning'}
      data-errors={counts.errors}
      data-warnings={counts.warnings}
      role="img"
      aria-label={title.replace(/\n/g, '; ')}
      title={title}
    >
      {counts.errors > 0 ? (
        <span className="problem-badge-part" data-severity="error">
          <XCircle size={12} aria-hidden="true" />
          {counts.errors}
        </span>
      ) : null}
      {counts.warnings > 0 ? (
        <span className="problem-badge-part" data-severity="warning">
          <AlertTriangle size={12} aria-hidden="true" />
          {counts.warnings}
        </span>
      ) : null}
    </span>
  );
}

export const ProblemBadge = memo(ProblemBadgeView);
