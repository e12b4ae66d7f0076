// One workflow: its graph, and a side panel with the selected step (or the workflow) and the
// validator's findings.
import { useEffect, useState } from 'react';
import { Play } from 'lucide-react';
import { useWorkflows } from './workflows-store.ts';
import { WorkflowGraph } from '../graph/workflow-graph.tsx';
import { useRoute } from '../app/route-store.ts';
import type { Diagnostic } from '../api/api-types.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { StepFacts } from './step-facts.tsx';

const NO_DIAGNOSTICS: Diagnostic[] = [];

export function WorkflowPage({ id }: { id: string }) {
  const detail = useWorkflows((s) => s.details[id]);
  const load = useWorkflows((s) => s.load);
  const [selected, setSelected] = useState<string | null>(null);
  useEffect(() => {
    void load(id);
    document.title = `${id} · Weft Studio`;
  }, [id, load]);

  if (detail === undefined || (detail.data === null && detail.loading)) return <div className="loading">Loading {id}…</div>;
  if (detail.data === null) return <div className="error-box">Could not open {id}: {detail.error}</div>;
  const { definition, diagnostics } = detail.data;
  const file = detail.data.summary.file;
  if (definition === null) {
    return (
      <div className="page">
        <h1 className="page-title">{file}</h1>
        <p className="page-sub">This file is not a workflow the app can draw. Fix these problems first:</p>
        <Diagnostics diagnostics={diagnostics} />
      </div>
    );
  }
  return (
    <div className="split">
      <WorkflowGraph workflow={definition} diagnostics={diagnostics ?? NO_DIAGNOSTICS} selected={selected} onSelect={setSelected} />
      <aside className="panel" aria-label="details">
        {selected === null ? (
          <WorkflowFacts workflow={definition} file={file} versions={detail.data.versions} />
        ) : (
          <StepFacts workflow={definition} stepId={selected} />
        )}
        <section className="panel-section">
          <h3>Checks</h3>
          <Diagnostics diagnostics={selected === null ? diagnostics : diagnostics.filter((d) => d.stepId === selected)} />
        </section>
      </aside>
    </div>
  );
}

function WorkflowFacts({ workflow, file, versions }: { workflow: Workflow; file: string; versions: readonly { version: number }[] }) {
  const go = useRoute((s) => s.go);
  return (
    <section className="panel-section">
      <h3>Workflow</h3>
      <div className="cell-title" style={{ fontSize: 'var(--fs-lg)', marginBottom: 4 }}>
        {workflow.name}
      </div>
      {workflow.description ? <p className="muted" style={{ marginTop: 0 }}>{workflow.description}</p> : null}
      <dl className="kv">
        <dt>id</dt>
        <dd className="mono">{workflow.id}</dd>
        <dt>version</dt>
        <dd>v{workflow.version}</dd>
        <dt>file</dt>
        <dd className="mono">{file}</dd>
        <dt>steps</dt>
        <dd>{workflow.steps.length}</dd>
        <dt>edges</dt>
        <dd>{workflow.edges.length}</dd>
        <dt>stored</dt>
        <dd>{versions.length === 0 ? 'never run' : versions.map((v) => `v${v.version}`).join(', ')}</dd>
      </dl>
      <p style={{ marginBottom: 0 }}>
        <button type="button" className="link-button" onClick={() => go({ page: 'runs', workflow: workflow.id })}>
          <Play size={13} aria-hidden="true" /> Runs of this workflow
        </button>
      </p>
    </section>
  );
}

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
