// One row of the Problems panel: severity, message and target on the first line, code and hint
// below. Memoized: a row re-renders only when its problem or its active state changes.
import { memo } from 'react';
import { AlertTriangle, GitBranch, Square, Workflow, XCircle } from 'lucide-react';
import type { Diagnostic } from '../../../shared/validator/diagnostic.ts';
import type { DiagnosticTarget } from './diagnostic-target.ts';

type TargetKind = DiagnosticTarget['kind'];

interface ProblemRowProps {
  diagnostic: Diagnostic;
  targetKind: TargetKind;
  /** The step or edge id, or "workflow". */
  target: string;
  index: number;
  active: boolean;
  onActivate(index: number): void;
  onFocusRow(index: number): void;
}

function TargetIcon({ kind }: { kind: TargetKind }) {
  if (kind === 'step') return <Square size={11} aria-hidden="true" />;
  if (kind === 'edge') return <GitBranch size={11} aria-hidden="true" />;
  return <Workflow size={11} aria-hidden="true" />;
}

function ProblemRowView({ diagnostic: d, targetKind, target, index, active, onActivate, onFocusRow }: ProblemRowProps) {
  const isError = d.severity === 'error';
  return (
    <li
      className="problem-row"
      role="option"
      aria-selected={active}
      tabIndex={active ? 0 : -1}
      data-index={index}
      data-testid="problem-row"
      data-code={d.code}
      data-severity={d.severity}
      data-step={targetKind === 'step' ? target : undefined}
      data-edge={targetKind === 'edge' ? target : undefined}
      onClick={() => onActivate(index)}
      onFocus={() => onFocusRow(index)}
    >
      <span className="problem-icon" data-severity={d.severity} role="img" aria-label={isError ? 'error' : 'warning'}>
        {isError ? <XCircle size={14} aria-hidden="true" /> : <AlertTriangle size={14} aria-hidden="true" />}
      </span>
      <span className="problem-message">{d.message}</span>
      <span className="problem-target" data-kind={targetKind} title={`${targetKind === 'workflow' ? 'workflow' : `${targetKind} ${target}`} · ${d.path}`}>
        <TargetIcon kind={targetKind} />
        <span className="problem-target-id">{target}</span>
      </span>
      <span className="problem-detail">
        <span className="problem-code">{d.code}</span>
        <span className="problem-hint">{d.hint}</span>
      </span>
    </li>
  );
}

export const ProblemRow = memo(ProblemRowView);
