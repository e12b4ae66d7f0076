// One run: the workflow's graph coloured by each step's live state, and the restart record:
// each step's state, attempts and next permitted action.
import { useEffect, useMemo, useState } from 'react';
import { useRuns } from './runs-store.ts';
import { useWorkflows } from '../workflows/workflows-store.ts';
import { WorkflowGraph } from '../graph/workflow-graph.tsx';
import type { Diagnostic } from '../api/api-types.ts';
import type { StepDetail } from '../../shared/api/run-detail.ts';
import { formatDuration, formatTime } from '../app/format.ts';

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
  const run = detail.run;
  return (
    <div className="split">
      <RunGraph runId={id} workflowId={run.workflowId} version={run.version} selected={selected} onSelect={setSelected} />
      <aside className="panel" aria-label="run details">
        <section className="panel-section">
          <h3>Run</h3>
          <dl className="kv">
            <dt>id</dt>
            <dd className="mono">{run.id}</dd>
            <dt>state</dt>
            <dd>
              <span className="state" data-state={run.state} data-testid="run-state">
                {run.state.replace('_', ' ')}
              </span>
            </dd>
            <dt>workflow</dt>
            <dd>
              {run.workflowId} v{run.version}
            </dd>
            <dt>started</dt>
            <dd>{formatTime(new Date(run.createdAtMs).toISOString())}</dd>
            <dt>input rev.</dt>
            <dd>{run.inputRevision}</dd>
            {run.forkOf !== null ? (
              <>
                <dt>fork of</dt>
                <dd className="mono">
                  {run.forkOf.runId} from {run.forkOf.fromStep}
                </dd>
              </>
            ) : null}
            {run.parent !== null ? (
              <>
                <dt>parent</dt>
                <dd className="mono">
                  {run.parent.runId} · {run.parent.stepId}
                </dd>
              </>
            ) : null}
            {run.failing !== null ? (
              <>
                <dt>failing at</dt>
                <dd>
                  <span className="mono">{run.failing.stepId}</span>: {run.failing.reason}
                </dd>
              </>
            ) : null}
          </dl>
          <Permitted actions={run.permittedActions} />
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

/** What the engine would accept now, and why: the same rules it refuses with (read-only here). */
function Permitted({ actions }: { actions: readonly { action: string; why: string }[] }) {
  if (actions.length === 0) return null;
  return (
    <div className="permitted" aria-label="permitted actions">
      <span className="faint">may</span>
      {actions.map((a) => (
        <span key={a.action} className="permitted-chip" title={a.why}>
          {a.action}
        </span>
      ))}
    </div>
  );
}

function StepRow({ step, selected, onSelect }: { step: StepDetail; selected: boolean; onSelect: (id: string) => void }) {
  return (
    <li>
      <button type="button" aria-pressed={selected} onClick={() => onSelect(step.id)} title={step.next} data-testid={`record-step-${step.id}`}>
        <span className="grow mono">{step.id}</span>
        {step.attempts.length > 1 ? <span className="faint">×{step.attempts.length}</span> : null}
        <span className="state" data-state={step.state}>
          {step.state.replace('_', ' ')}
        </span>
      </button>
      {selected ? (
        <div className="step-detail" data-testid={`step-detail-${step.id}`}>
          <p className="muted">{step.next}</p>
          {step.evidence !== null ? (
            <p className="faint">
              evidence <span className="mono">{step.evidence.id}</span> covers input <span className="mono">{step.evidence.covers.inputHash}</span>, v
              {step.evidence.covers.definitionVersion}, revision {step.evidence.covers.inputRevision}
            </p>
          ) : null}
          {step.attempts.length > 0 ? (
            <ol className="attempt-list">
              {step.attempts.map((a) => (
                <li key={a.id}>
                  <span className="mono">{a.id}</span>
                  <span className="state" data-state={a.state}>
                    {a.state}
                  </span>
                  <span className="faint">{a.endedAtMs === null ? 'running' : formatDuration(a.endedAtMs - a.startedAtMs)}</span>
                  {a.error !== null ? (
                    <span className="mono attempt-error" title={a.error.message}>
                      {a.error.code}
                    </span>
                  ) : null}
                </li>
              ))}
            </ol>
          ) : null}
          <Permitted actions={step.permittedActions} />
        </div>
      ) : null}
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
