// One run: its graph coloured by each step's live state, the selected step's detail (attempts,
// evidence, provenance, what may be done), the restart record in words, the run's input and
// child runs; the timeline below. Selecting in any of them selects in all.
import { useEffect, useMemo, useState } from 'react';
import { GitCompare, CornerLeftUp } from 'lucide-react';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { RunDetail } from '../../shared/api/run-detail.ts';
import { useRuns } from './runs-store.ts';
import { useWorkflows } from '../workflows/workflows-store.ts';
import { useRoute } from '../app/route-store.ts';
import { WorkflowGraph } from '../graph/workflow-graph.tsx';
import type { Diagnostic } from '../api/api-types.ts';
import { formatDuration, formatTime } from '../app/format.ts';
import { StepDetail, type RunSelection } from './run-view/step-detail.tsx';
import { RestartRecordView } from './run-view/restart-record-view.tsx';
import { ValueView } from './run-view/value-view.tsx';
import { ComparePicker } from './compare/compare-view.tsx';
import './run-view/run-view.css';

const NO_DIAGNOSTICS: Diagnostic[] = [];
type Tab = 'step' | 'record' | 'run';

export function RunPage({ id }: { id: string }) {
  const detail = useRuns((s) => s.details[id]);
  const error = useRuns((s) => s.detailErrors[id]);
  const loadRun = useRuns((s) => s.loadRun);
  const [selection, setSelection] = useState<RunSelection | null>(null);
  const [tab, setTab] = useState<Tab>('record');
  useEffect(() => {
    void loadRun(id);
    document.title = `Run ${id} · Weft Studio`;
  }, [id, loadRun]);
  const definition = useRunDefinition(detail);

  // A failed run opens at the step it is failing at: its cause is one click further.
  useEffect(() => {
    if (selection !== null || detail === undefined) return;
    const failing = detail.run.failing?.stepId ?? detail.steps.find((s) => s.state === 'failed' || s.state === 'unknown' || s.escalated)?.id;
    if (failing !== undefined) {
      setSelection({ stepId: failing, attemptId: null });
      setTab('step');
    }
  }, [detail, selection]);

  if (detail === undefined) return error ? <div className="error-box">Could not open run {id}: {error}</div> : <div className="loading">Loading run {id}…</div>;
  const select = (next: RunSelection) => {
    setSelection(next);
    setTab('step');
  };
  return (
    <div className="run-view" data-testid="run-view">
      <RunHead detail={detail} />
      <div className="run-body">
        <div className="run-graph">
          {definition === null ? (
            <div className="loading">Loading the definition of {detail.run.workflowId} v{detail.run.version}…</div>
          ) : (
            <WorkflowGraph
              workflow={definition}
              diagnostics={NO_DIAGNOSTICS}
              runId={id}
              selected={selection?.stepId ?? null}
              onSelect={(stepId) => (stepId === null ? setSelection(null) : select({ stepId, attemptId: null }))}
            />
          )}
        </div>
        <aside className="panel run-panel" aria-label="run details">
          <div className="panel-tabs" role="tablist" aria-label="run details">
            {(['step', 'record', 'run'] as const).map((t) => (
              <button key={t} type="button" role="tab" aria-selected={tab === t} onClick={() => setTab(t)} data-testid={`run-tab-${t}`}>
                {t === 'step' ? 'Step' : t === 'record' ? 'Restart record' : 'Run'}
              </button>
            ))}
          </div>
          <div className="run-panel-body">
            {tab === 'step' ? (
              selection === null || definition === null ? (
                <p className="muted run-detail-empty">Select a step on the graph, the timeline or the restart record.</p>
              ) : (
                <StepDetail detail={detail} definition={definition} selection={selection} onSelect={select} />
              )
            ) : null}
            {tab === 'record' ? <RestartRecordView detail={detail} selected={selection?.stepId ?? null} onSelect={select} /> : null}
            {tab === 'run' ? <RunFacts detail={detail} /> : null}
          </div>
        </aside>
      </div>
    </div>
  );
}

/** The run's own definition snapshot (the version it runs), with the file's layout when the file is that version. */
function useRunDefinition(detail: RunDetail | undefined): Workflow | null {
  const workflowId = detail?.run.workflowId;
  const fileDetail = useWorkflows((s) => (workflowId === undefined ? undefined : s.details[workflowId]));
  const load = useWorkflows((s) => s.load);
  useEffect(() => {
    if (workflowId !== undefined) void load(workflowId);
  }, [load, workflowId]);
  const snapshot = detail?.definition;
  const file = fileDetail?.data?.definition ?? null;
  const version = detail?.run.version;
  return useMemo(() => {
    const sameVersion = file !== null && file.version === version;
    if (snapshot === undefined) return sameVersion ? file : null;
    return sameVersion && file.layout !== undefined ? { ...snapshot, layout: file.layout } : snapshot;
  }, [snapshot, file, version]);
}

function RunHead({ detail }: { detail: RunDetail }) {
  const go = useRoute((s) => s.go);
  const run = detail.run;
  const [comparing, setComparing] = useState(false);
  const order = useRuns((s) => s.order);
  const byId = useRuns((s) => s.byId);
  const runs = useMemo(
    () => order.flatMap((rid) => {
      const r = byId[rid];
      return r !== undefined && r.workflowId === run.workflowId && r.id !== run.id ? [r] : [];
    }),
    [order, byId, run.workflowId, run.id],
  );
  const ended = run.state === 'succeeded' || run.state === 'failed' || run.state === 'cancelled';
  return (
    <div className="run-head">
      {run.parent !== null ? (
        <button type="button" className="link-button run-parent" onClick={() => go({ page: 'run', id: run.parent?.runId ?? '' })} data-testid="parent-run">
          <CornerLeftUp size={13} aria-hidden="true" /> {run.parent.runId} · {run.parent.stepId}
          {run.parent.index !== undefined ? ` [${run.parent.index}]` : ''}
        </button>
      ) : null}
      <span className="run-id mono">{run.id}</span>
      {run.debug !== undefined ? (
        <span className="debug-badge" data-testid="run-debug" title={`breakpoints: ${run.debug.breakpoints.join(', ') || 'none'}; pinned: ${run.debug.pins.join(', ') || 'none'}`}>
          debug
          {run.debug.pausedAt !== null ? ` · paused before ${run.debug.pausedAt.step}` : run.debug.stepping ? ' · stepping' : ''}
        </span>
      ) : null}
      <span className="state" data-state={run.state} data-testid="run-state">
        {run.state.replace('_', ' ')}
      </span>
      <button type="button" className="link-button" onClick={() => go({ page: 'workflow', id: run.workflowId })}>
        {run.workflowId} v{run.version}
      </button>
      <span className="faint">
        started {formatTime(new Date(run.createdAtMs).toISOString())}
        {ended ? ` · took ${formatDuration(run.updatedAtMs - run.createdAtMs)}` : ''}
      </span>
      {run.failing !== null ? (
        <span className="run-failing" data-testid="run-failing">
          failing at <span className="mono">{run.failing.stepId}</span>: {run.failing.reason}
        </span>
      ) : null}
      <span className="toolbar-spacer" />
      <div className="menu-anchor">
        <button type="button" className="button" onClick={() => setComparing((c) => !c)} aria-expanded={comparing} data-testid="compare-button">
          <GitCompare size={14} aria-hidden="true" /> Compare…
        </button>
        {comparing ? (
          <div className="menu compare-menu">
            <ComparePicker runA={run.id} runs={runs} onPick={(b) => go({ page: 'compare', a: run.id, b })} />
          </div>
        ) : null}
      </div>
    </div>
  );
}

function RunFacts({ detail }: { detail: RunDetail }) {
  const go = useRoute((s) => s.go);
  const run = detail.run;
  return (
    <div className="run-facts">
      <section className="panel-section">
        <h3>Run</h3>
        <dl className="kv">
          <dt>input rev.</dt>
          <dd>{run.inputRevision}</dd>
          {run.key !== null ? (
            <>
              <dt>key</dt>
              <dd className="mono">{run.key}</dd>
            </>
          ) : null}
          <dt>priority</dt>
          <dd>{run.priority}</dd>
          {run.forkOf !== null ? (
            <>
              <dt>fork of</dt>
              <dd>
                <button type="button" className="link-button mono" onClick={() => go({ page: 'run', id: run.forkOf?.runId ?? '' })}>
                  {run.forkOf.runId}
                </button>{' '}
                from {run.forkOf.fromStep}
              </dd>
            </>
          ) : null}
        </dl>
        {run.permittedActions.length > 0 ? (
          <ul className="rsd-permitted" style={{ marginTop: 8 }}>
            {run.permittedActions.map((p) => (
              <li key={p.action}>
                <span className="permitted-chip">{p.action}</span> <span className="muted">{p.why}</span>
              </li>
            ))}
          </ul>
        ) : null}
      </section>
      <section className="panel-section">
        <h3>Input</h3>
        <ValueView value={run.input} runId={run.id} valuePath="run.input" label="run input" testId="run-input" />
      </section>
      {detail.children.length > 0 ? (
        <section className="panel-section" data-testid="child-runs">
          <h3>Child runs</h3>
          <ul className="child-runs">
            {detail.children.map((c) => (
              <li key={c.runId}>
                <button type="button" className="rr-row" onClick={() => go({ page: 'run', id: c.runId })} data-testid={`child-run-${c.runId}`}>
                  <span className="rr-line">
                    <span className="mono">
                      {c.stepId}
                      {detail.children.filter((o) => o.stepId === c.stepId).length > 1 ? ` [${c.index}]` : ''}
                    </span>
                    <span className="state" data-state={c.state ?? 'running'}>
                      {(c.state ?? 'running').replace('_', ' ')}
                    </span>
                    <span className="faint mono">{c.runId}</span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
