// Two runs side by side (issue 13): both runs, the first difference called out with its fields,
// the path each took, the version diff when they ran different versions, and every step's state
// and duration for A and B. The comparison is shared/run/compare-runs.ts (what `weft compare`
// prints); this view only shows it. The page that fetches it is wired by the runs route.
import { useMemo } from 'react';
import { ArrowRight, GitCompareArrows } from 'lucide-react';
import type { ComparedRun, RunComparison } from '../../../shared/api/run-comparison.ts';
import { diffSummaryLines } from '../../../shared/definition/workflow-diff.ts';
import { CompareStepsTable } from './compare-steps-table.tsx';
import { FieldDiffTable } from './field-diff-table.tsx';
import './compare.css';
import { versionLabel } from '../../../shared/run/version-label.ts';

// The picker of run B sits with the view, so the runs route imports both from here.
export { ComparePicker } from './compare-picker.tsx';

const KIND_LABEL = { path: 'a different path', input: 'a different input', candidate: 'a different candidate', outcome: 'a different outcome', output: 'a different output' } as const;

export function CompareView({ comparison }: { comparison: RunComparison }) {
  const c = comparison;
  const [a, b] = c.runs;
  const d = c.firstDifference;
  const versionLines = useMemo(() => (c.versionDiff === null ? [] : diffSummaryLines(c.versionDiff)), [c.versionDiff]);
  const ids = useMemo(() => ({ a: a.id, b: b.id }), [a.id, b.id]);
  return (
    <section className="compare-view" aria-label="run comparison" data-testid="compare-view" data-same={c.same}>
      <header className="compare-head">
        <GitCompareArrows size={16} aria-hidden="true" className="compare-head-icon" />
        <RunCard side="A" run={a} />
        <ArrowRight size={14} aria-hidden="true" className="faint" />
        <RunCard side="B" run={b} />
      </header>

      {d === null ? (
        <div className="compare-callout" data-testid="compare-same" role="status">
          No difference: both runs took the same path with the same inputs, outcomes and outputs.
        </div>
      ) : (
        <div className="compare-callout" data-difference="true" data-testid="first-difference" data-kind={d.kind} data-step={d.stepId} role="status">
          <div className="compare-callout-title">
            First difference at step <span className="mono compare-step-name">{d.stepId}</span>: {KIND_LABEL[d.kind]}
          </div>
          <div className="muted">{d.why}</div>
          {d.kind === 'outcome' ? <OutcomeErrors steps={c.steps} stepId={d.stepId} /> : null}
          {d.fields !== undefined && d.fields.length > 0 ? <FieldDiffTable fields={d.fields} {...(d.total === undefined ? {} : { total: d.total })} runs={ids} label={`fields of the ${d.kind} of ${d.stepId} that differ`} /> : null}
        </div>
      )}

      <div className="compare-routes" aria-label="the path each run took">
        <Route side="A" steps={c.route.a} other={c.route.b} />
        <Route side="B" steps={c.route.b} other={c.route.a} />
      </div>

      {c.versionDiff !== null ? (
        <div className="compare-version-diff" data-testid="compare-version-diff">
          <div className="compare-section-title">
            {a.workflowId} {versionLabel(a.version)} → {b.workflowId} {versionLabel(b.version)}
          </div>
          <ul className="mono">
            {versionLines.map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ul>
        </div>
      ) : null}

      <CompareStepsTable steps={c.steps} first={d?.stepId ?? null} runs={ids} />
    </section>
  );
}

/** What each side's deciding attempt failed with, where the outcomes part. */
function OutcomeErrors({ steps, stepId }: { steps: RunComparison['steps']; stepId: string }) {
  const step = steps.find((s) => s.id === stepId);
  const errors = (['a', 'b'] as const).flatMap((side) => {
    const error = step?.[side]?.error;
    return error === undefined || error === null ? [] : [{ side: side.toUpperCase(), error }];
  });
  return (
    <ul className="compare-errors" data-testid="first-difference-errors">
      {errors.map(({ side, error }) => (
        <li key={side}>
          <span className="compare-side">{side}</span> <span className="mono">{error.code}</span>: {error.message}
        </li>
      ))}
    </ul>
  );
}

function RunCard({ side, run }: { side: 'A' | 'B'; run: ComparedRun }) {
  return (
    <div className="compare-run" data-testid={`compare-run-${side.toLowerCase()}`}>
      <span className="compare-side">{side}</span>
      <span className="mono compare-run-id" title={run.id}>
        {run.id}
      </span>
      <span className="muted compare-run-version" title={`${run.workflowId} version ${run.version}`}>
        {run.workflowId} {versionLabel(run.version)}
      </span>
      <span className="state" data-state={run.state}>
        {run.state.replace('_', ' ')}
      </span>
    </div>
  );
}

/** One run's path, in the order it first reached each step; steps the other run did not reach are marked. */
function Route({ side, steps, other }: { side: 'A' | 'B'; steps: readonly string[]; other: readonly string[] }) {
  const theirs = new Set(other);
  return (
    <div className="compare-route" data-testid={`compare-route-${side.toLowerCase()}`}>
      <span className="compare-side">{side}</span>
      <ol aria-label={`path of run ${side}`}>
        {steps.length === 0 ? <li className="faint">no step reached</li> : null}
        {steps.map((s, i) => (
          <li key={s}>
            {i > 0 ? <span className="compare-route-arrow" aria-hidden="true">→</span> : null}
            <span className="mono compare-route-step" data-own={!theirs.has(s) || undefined} title={theirs.has(s) ? undefined : `only run ${side} reached ${s}`}>
              {s}
            </span>
          </li>
        ))}
      </ol>
    </div>
  );
}
