// The data-handoff view of the selected step or edge: each field read, the step (or run input) it
// comes from, whether that source has certainly finished on every path, and the fixes the
// validator would accept. The analysis is shared/validator/handoffs, the validator's own.
import { memo, useMemo, useState } from 'react';
import { ArrowRight, CircleCheck, CircleQuestionMark, FilePlus, ShieldCheck, TriangleAlert } from 'lucide-react';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { analyzeHandoffs } from '../../shared/validator/handoffs/analyze-handoffs.ts';
import { applyHandoffFix } from '../../shared/validator/handoffs/apply-fix.ts';
import type { HandoffFix, HandoffFlow, HandoffRead, HandoffSource } from '../../shared/validator/handoffs/handoff-types.ts';
import './handoffs.css';

export type HandoffSelection = { kind: 'step'; id: string } | { kind: 'edge'; id: string } | null;

export interface HandoffsPanelProps {
  workflow: Workflow;
  selection: HandoffSelection;
  onSelectStep: (id: string) => void;
  onApplyFix: (next: Workflow) => void;
  /** Focus the expression field at a JSON path such as `$.steps[3].input`. */
  onFocusSite: (site: string) => void;
}

export function HandoffsPanel({ workflow, selection, onSelectStep, onApplyFix, onFocusSite }: HandoffsPanelProps) {
  const handoffs = useMemo(() => analyzeHandoffs(workflow), [workflow]);
  const [error, setError] = useState<string | undefined>(undefined);
  const apply = (read: HandoffRead, fix: HandoffFix): void => {
    try {
      setError(undefined);
      onApplyFix(applyHandoffFix(workflow, read.site, fix));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  const actions = { onSelectStep, onFocusSite, apply };

  if (selection === null) {
    return (
      <section className="handoffs" data-testid="handoffs">
        <p className="handoffs-empty">Select a step to see what it reads, or an edge to see what flows along it.</p>
      </section>
    );
  }
  const reads: readonly HandoffRead[] | undefined = selection.kind === 'step' ? handoffs.steps[selection.id] : handoffs.edges[selection.id];
  const flagged = reads?.filter((r) => r.problem).length ?? 0;
  return (
    <section className="handoffs" data-testid="handoffs" aria-label="Data handoffs">
      <header className="handoffs-head">
        <h3>{selection.kind === 'step' ? 'Reads' : 'Flows along this edge'}</h3>
        {flagged > 0 ? (
          <span className="handoffs-count is-flagged">
            {flagged} flagged
          </span>
        ) : null}
      </header>
      {error ? (
        <p className="handoffs-error" role="alert">
          {error}
        </p>
      ) : null}
      {reads === undefined ? (
        <p className="handoffs-empty">No {selection.kind} "{selection.id}" in this workflow.</p>
      ) : reads.length === 0 ? (
        <p className="handoffs-empty">
          {selection.kind === 'step' ? 'Its expressions read nothing from the run input or other steps.' : 'No field of an earlier step is read across this edge.'}
        </p>
      ) : (
        groupBySource(reads).map(([label, group]) => (
          <div className="handoffs-group" key={label}>
            <SourceHeading source={group[0]?.source} onSelectStep={onSelectStep} />
            <ul className="handoffs-list">
              {group.map((read) => (
                <ReadRow key={`${read.site}@${read.position ?? 0}`} read={read} {...actions} />
              ))}
            </ul>
          </div>
        ))
      )}
    </section>
  );
}

const sourceKey = (s: HandoffSource): string =>
  s.kind === 'step' ? `step:${s.stepId}` : s.kind === 'unresolved' ? `unresolved:${s.name}` : s.kind;

function groupBySource(reads: readonly HandoffRead[]): [string, HandoffRead[]][] {
  const groups = new Map<string, HandoffRead[]>();
  for (const r of reads) {
    const k = sourceKey(r.source);
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  return [...groups.entries()];
}

function SourceHeading({ source, onSelectStep }: { source: HandoffSource | undefined; onSelectStep: (id: string) => void }) {
  if (source === undefined) return null;
  if (source.kind === 'step') {
    return (
      <h4 className="handoffs-source">
        from{' '}
        <button type="button" className="handoffs-link mono" onClick={() => onSelectStep(source.stepId)} title={`Select step ${source.stepId}`}>
          {source.stepId}
        </button>
      </h4>
    );
  }
  const text = source.kind === 'input' ? 'from the run input' : source.kind === 'run' ? 'from the run' : `unresolved: ${source.name}`;
  return <h4 className="handoffs-source">{text}</h4>;
}

interface RowActions {
  onSelectStep: (id: string) => void;
  onFocusSite: (site: string) => void;
  apply: (read: HandoffRead, fix: HandoffFix) => void;
}

const ReadRow = memo(function ReadRow({ read, onSelectStep, onFocusSite, apply }: { read: HandoffRead | HandoffFlow } & RowActions) {
  const flagged = read.problem !== undefined;
  const source = read.source.kind === 'step' ? read.source.stepId : read.source.kind === 'unresolved' ? read.source.name : read.source.kind;
  const readBy = 'readBy' in read ? (read.readBy === 'when' ? 'the edge condition' : read.readBy) : undefined;
  return (
    <li className={`handoffs-read${flagged ? ' is-flagged' : ''}`} data-testid="handoff-read" data-field={read.field} data-source={source} data-flagged={String(flagged)}>
      <div className="handoffs-line">
        <Guarantee read={read} />
        <button type="button" className="handoffs-field mono" onClick={() => onFocusSite(read.site)} title={`Show the expression at ${read.site}`}>
          {read.field}
        </button>
        {read.declared === false ? (
          <span className="handoffs-tag is-warning" title="The source's schema does not declare this field">
            <CircleQuestionMark size={12} aria-hidden="true" /> not declared
          </span>
        ) : null}
        {readBy ? (
          <span className="handoffs-by">
            <ArrowRight size={12} aria-hidden="true" /> {readBy}
          </span>
        ) : null}
      </div>
      {read.problem ? (
        <div className="handoffs-problem">
          <span className="mono handoffs-code">{read.problem.code}</span> {read.problem.message}
          {read.problem.code === 'missing-dependency' && read.problem.branches && read.problem.branches.length > 0 ? (
            <div className="handoffs-branches">
              {read.problem.branches.length === 1 && read.problem.branches[0] === source ? 'Produced only on the branch through' : 'Not produced when the run goes through'}{' '}
              {read.problem.branches.map((b, i) => (
                <span key={b}>
                  {i > 0 ? ', ' : ''}
                  <button type="button" className="handoffs-link mono" onClick={() => onSelectStep(b)}>
                    {b}
                  </button>
                </span>
              ))}
              {read.problem.edges && read.problem.edges.length > 0 ? <span className="handoffs-muted"> (edge {read.problem.edges.join(', ')})</span> : null}
            </div>
          ) : null}
        </div>
      ) : null}
      {read.fixes.length > 0 ? (
        <div className="handoffs-fixes">
          {read.fixes.map((fix) =>
            fix.kind === 'declare' ? (
              <button key="declare" type="button" className="handoffs-fix" data-testid="handoff-fix-declare" onClick={() => apply(read, fix)}>
                <FilePlus size={13} aria-hidden="true" />
                {fix.target.kind === 'input' ? 'Declare in the run input' : `Declare in ${fix.target.stepId} output`}
              </button>
            ) : (
              <button key="guard" type="button" className="handoffs-fix" data-testid="handoff-fix-guard" onClick={() => apply(read, fix)} title={fix.after}>
                <ShieldCheck size={13} aria-hidden="true" />
                {fix.via ? `Guard with $exists (through ${fix.via})` : 'Guard with $exists'}
              </button>
            ),
          )}
        </div>
      ) : null}
    </li>
  );
});

function Guarantee({ read }: { read: HandoffRead }) {
  if (read.guarded && !read.guaranteed) {
    return (
      <span className="handoffs-state is-guarded" title="Read behind an $exists guard">
        <ShieldCheck size={14} aria-hidden="true" />
        <span className="visually-hidden">guarded</span>
      </span>
    );
  }
  if (read.guaranteed) {
    return (
      <span className="handoffs-state is-ok" title="Finished on every path to this step">
        <CircleCheck size={14} aria-hidden="true" />
        <span className="visually-hidden">guaranteed</span>
      </span>
    );
  }
  return (
    <span className="handoffs-state is-maybe" title="May not have run on every path to this step">
      <TriangleAlert size={14} aria-hidden="true" />
      <span className="visually-hidden">may not have run</span>
    </span>
  );
}
