// One run: the workflow's graph coloured by each step's live state, and the restart record:
// each step's state, attempts and next permitted action.
import { useEffect, useMemo, useState } from 'react';
import { useRuns } from './runs-store.ts';
import { useWorkflows } from '../workflows/workflows-store.ts';
import { WorkflowGraph } from '../graph/workflow-graph.tsx';
import type { Diagnostic } from '../api/api-types.ts';
import type { StepRecord } from '../api/api-types.ts';

const NO_DIAGNOSTICS: Diagnostic[] = [];

export function RunPage({ id }: { id: string }) {
  const detail = useRuns((s) => s.details[id]);
  const error = useRuns((s) => s.detailErrors[id]);
  const loadRun = useRuns((s) => s.loadRun);
  const [selected, setSelected] = useState<string | null>(null);
  useEffect(() => {
    void loadRun(id);
    document.title = `Run ${id} · Weft Studio`;
  }, [id, loadRun]);

  if (detail === undefined) return error ? <div className="error-box">Could not open run {id}: {error}</div> : <div className="loading">Loading run {id}…</div>;
  return (
    <div className="split">
      <RunGraph runId={id} workflowId={detail.run.workflowId} version={detail.run.version} selected={selected} onSelect={setSelected} />
      <aside className="panel" aria-label="run details">
        <section className="panel-section">
          <h3>Run</h3>
          <dl className="kv">
            <dt>id</dt>
            <dd className="mono">{detail.run.id}</dd>
            <dt>state</dt>
            <dd>
              <span className="state" data-state={detail.run.state} data-testid="run-state">
                {detail.run.state.replace('_', ' ')}
              </span>
            </dd>
            <dt>workflow</dt>
            <dd>
              {detail.run.workflowId} v{detail.run.version}
            </dd>
            <dt>input rev.</dt>
            <dd>{detail.run.inputRevision}</dd>
          </dl>
        </section>
        <section className="panel-section">
          <h3>Restart record</h3>
          <ul className="step-list">
            {detail.steps.map((s) => (
              <StepRow key={s.id} step={s} selected={s.id === selected} onSelect={setSelected} />
            ))}
          </ul>
        </section>
      </aside>
    </div>
  );
}

function StepRow({ step, selected, onSelect }: { step: StepRecord; selected: boolean; onSelect: (id: string) => void }) {
  return (
    <li>
      <button type="button" aria-pressed={selected} onClick={() => onSelect(step.id)} title={step.next}>
        <span className="grow mono">{step.id}</span>
        {step.attempts.length > 1 ? <span className="faint">×{step.attempts.length}</span> : null}
        <span className="state" data-state={step.state}>
          {step.state.replace('_', ' ')}
        </span>
      </button>
      {selected ? <p className="muted" style={{ margin: '2px 8px 8px', fontSize: 'var(--fs-sm)' }}>{step.next}</p> : null}
    </li>
  );
}

/**
 * The run's own definition snapshot: the version it runs, which may differ from the file. The
 * snapshot leaves out the editor's `layout`; the file's is used when the file is that version.
 */
function RunGraph(props: { runId: string; workflowId: string; version: number; selected: string | null; onSelect: (id: string | null) => void }) {
  const snapshot = useRuns((s) => s.details[props.runId]?.definition);
  const fileDetail = useWorkflows((s) => s.details[props.workflowId]);
  const load = useWorkflows((s) => s.load);
  useEffect(() => {
    void load(props.workflowId);
  }, [load, props.workflowId]);
  const file = fileDetail?.data?.definition;
  const sameVersion = file !== null && file !== undefined && file.version === props.version;
  const workflow = useMemo(() => {
    if (snapshot === undefined) return sameVersion ? file : null;
    return sameVersion && file.layout !== undefined ? { ...snapshot, layout: file.layout } : snapshot;
  }, [snapshot, file, sameVersion]);
  if (workflow === null || workflow === undefined || (snapshot !== undefined && fileDetail?.loading === true && fileDetail.data === null)) {
    return <div className="loading">Loading the definition of {props.workflowId} v{props.version}…</div>;
  }
  return <WorkflowGraph workflow={workflow} diagnostics={NO_DIAGNOSTICS} runId={props.runId} selected={props.selected} onSelect={props.onSelect} />;
}
