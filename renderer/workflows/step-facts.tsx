// The selected step's definition, read-only: what a person checks before running it.
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { KindIcon } from '../graph/kind-icon.tsx';
import { formatDuration } from '../app/format.ts';
import { edgeOutcomesOf } from '../graph/to-flow.ts';

export function StepFacts({ workflow, stepId }: { workflow: Workflow; stepId: string }) {
  const step = workflow.steps.find((s) => s.id === stepId);
  if (step === undefined) return <section className="panel-section muted">No step {stepId} in this version.</section>;
  const incoming = workflow.edges.filter((e) => e.to === stepId);
  const outgoing = workflow.edges.filter((e) => e.from === stepId);
  return (
    <section className="panel-section" data-testid="step-facts">
      <h3>Step</h3>
      <div style={{ display: 'flex', alignItems: 'center', gap: 8, marginBottom: 8 }}>
        <KindIcon kind={step.kind} />
        <span className="cell-title" style={{ fontSize: 'var(--fs-lg)' }}>
          {step.name ?? step.id}
        </span>
      </div>
      <dl className="kv">
        <dt>id</dt>
        <dd className="mono">{step.id}</dd>
        <dt>kind</dt>
        <dd>{step.kind}</dd>
        <dt>effect</dt>
        <dd>{step.effect ?? 'none'}</dd>
        {step.retry?.maxAttempts ? (
          <>
            <dt>attempts</dt>
            <dd>up to {step.retry.maxAttempts}</dd>
          </>
        ) : null}
        {step.timeoutMs ? (
          <>
            <dt>timeout</dt>
            <dd>{formatDuration(step.timeoutMs)}</dd>
          </>
        ) : null}
        {step.deadlineMs ? (
          <>
            <dt>deadline</dt>
            <dd>{formatDuration(step.deadlineMs)}</dd>
          </>
        ) : null}
        {step.onExhausted ? (
          <>
            <dt>exhausted</dt>
            <dd>{step.onExhausted}</dd>
          </>
        ) : null}
        {step.compensation ? (
          <>
            <dt>compensation</dt>
            <dd className="mono">{step.compensation}</dd>
          </>
        ) : null}
        <dt>from</dt>
        <dd>{incoming.length === 0 ? 'entry step' : incoming.map((e) => `${e.from} (${edgeOutcomesOf(e).join('/')})`).join(', ')}</dd>
        <dt>to</dt>
        <dd>{outgoing.length === 0 ? '—' : outgoing.map((e) => `${e.to} (${edgeOutcomesOf(e).join('/')})`).join(', ')}</dd>
      </dl>
      {step.input ? (
        <>
          <h3 style={{ marginTop: 12 }}>Input</h3>
          <pre className="json">{step.input}</pre>
        </>
      ) : null}
      {'config' in step && step.config !== undefined ? (
        <>
          <h3 style={{ marginTop: 12 }}>Config</h3>
          <pre className="json">{JSON.stringify(step.config, null, 2)}</pre>
        </>
      ) : null}
    </section>
  );
}
