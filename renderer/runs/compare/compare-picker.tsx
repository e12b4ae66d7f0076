// Choosing run B to compare with run A: the other runs, those of A's workflow first (newest
// first within each group, as the list comes), each with its version, state and start.
import type { RunSummary } from '../../../shared/api/run-summary.ts';
import { When } from '../../core/when.tsx';

interface Props {
  /** Run A's id. */
  runA: string;
  runs: readonly RunSummary[];
  onPick(runId: string): void;
}

export function ComparePicker({ runA, runs, onPick }: Props) {
  const workflow = runs.find((r) => r.id === runA)?.workflowId;
  const others = runs.filter((r) => r.id !== runA);
  const ordered = [...others.filter((r) => r.workflowId === workflow), ...others.filter((r) => r.workflowId !== workflow)];
  return (
    <div className="compare-picker" data-testid="compare-picker">
      <div className="compare-section-title">Compare {runA} with…</div>
      {ordered.length === 0 ? <div className="faint">No other run to compare with.</div> : null}
      <ul aria-label="runs to compare with">
        {ordered.map((r) => (
          <li key={r.id}>
            <button type="button" className="compare-pick" data-testid="compare-pick" data-run={r.id} onClick={() => onPick(r.id)}>
              <span className="mono compare-run-id">{r.id}</span>
              <span className="muted">
                {r.workflowId} v{r.version}
              </span>
              <span className="state" data-state={r.state}>
                {r.state.replace('_', ' ')}
              </span>
              <span className="faint">
                <When at={r.createdAt} />
              </span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
