// The dialogs of a step's operator actions: retry (optionally with an edited input, prefilled with
// the latest attempt's resolved input), skip (with the output a person gives, checked against the
// step's output schema by the engine), resolve an unknown outcome (succeeded or failed, with
// evidence), keep earlier evidence after a revision, and fork a new run from the step. A retry and
// a fork say which steps they will bill again, and ask for a confirmation when any will.
import { useState } from 'react';
import type { JsonValue } from '../../../shared/api/json-value.ts';
import type { RunActionResult } from '../../../shared/api/run-action.ts';
import type { RunDetail } from '../../../shared/api/run-detail.ts';
import { sameValue } from '../../../shared/definition/workflow-diff.ts';
import type { RunActionsClient } from '../../api/run-actions-client.ts';
import { JsonInput, type JsonRead } from '../../forms/json-input.tsx';
import { SchemaForm, type SchemaFormResult } from '../../forms/schema-form.tsx';
import { ActionDialog } from './action-dialog.tsx';
import { confirmText, RebillWarning, useRebill } from './rebill-warning.tsx';
import { useOrderedDefinition } from './ordered-definition.ts';
import { downstream, externalAmong, isExternal, lastInput, listWords, stepDetail } from './run-facts.ts';

export interface StepDialogProps {
  detail: RunDetail;
  stepId: string;
  client: RunActionsClient;
  onDone(result: RunActionResult): void;
  onClose(): void;
}

function Subject({ detail, stepId }: { detail: RunDetail; stepId: string }) {
  const step = stepDetail(detail, stepId);
  return (
    <>
      step <span className="mono">{stepId}</span>
      {step !== undefined ? ` · ${step.state.replace('_', ' ')}` : ''} · run <span className="mono">{detail.run.id}</span>
      {isExternal(detail, stepId) ? <span className="effect-external"> · external effect</span> : null}
    </>
  );
}

function formProblem(form: SchemaFormResult, what: string, required: boolean): string | null {
  if (form.errors[0] !== undefined) return `Fix the ${what}: ${form.errors[0].path}: ${form.errors[0].message}.`;
  return required && form.value === undefined ? `Give the ${what}.` : null;
}

export function RetryDialog({ detail, stepId, client, onDone, onClose }: StepDialogProps) {
  const previous = lastInput(stepDetail(detail, stepId));
  const [edit, setEdit] = useState(false);
  const [input, setInput] = useState<JsonRead>(previous === undefined ? { kind: 'empty' } : { kind: 'value', value: previous });
  const external = isExternal(detail, stepId);
  const rebill = useRebill(client, detail, 'retry', stepId);
  const blocked = !edit ? null : input.kind === 'invalid' ? `Fix the input: ${input.message}.` : input.kind === 'empty' ? 'Give the input (null is an input), or retry with the resolved one.' : null;
  return (
    <ActionDialog
      name="retry"
      title="Retry the step"
      subject={<Subject detail={detail} stepId={stepId} />}
      submitLabel="Retry"
      reason="optional"
      blocked={blocked}
      confirm={confirmText(external ? `${stepId} has external effects: retrying it sends its request again. Its idempotency key lets a careful service ignore a duplicate; check that this one does.` : null, rebill)}
      onSubmit={async (who) => onDone(await client.runAction(detail.run.id, { action: 'retry', step: stepId, ...(edit && input.kind === 'value' ? { input: input.value } : {}), ...who }))}
      onClose={onClose}
    >
      <section className="action-section">
        <label className="schema-check">
          <input type="checkbox" checked={edit} onChange={(e) => setEdit(e.target.checked)} data-testid="retry-edit" />
          Retry with an edited input
        </label>
        {edit ? (
          <JsonInput label="input for the new attempt" initial={previous} onChange={setInput} testId="retry-input" hint="Replaces the step's resolved input for this activation." />
        ) : (
          <p className="faint action-explain">The step resolves its input again, as it did before.</p>
        )}
      </section>
      <RebillWarning estimate={rebill} />
    </ActionDialog>
  );
}

export function SkipDialog({ detail, stepId, client, onDone, onClose }: StepDialogProps) {
  const step = stepDetail(detail, stepId);
  const [output, setOutput] = useState<SchemaFormResult>({ value: undefined, errors: [] });
  const outputSchema = useOrderedDefinition(detail)?.steps.find((s) => s.id === stepId)?.output;
  return (
    <ActionDialog
      name="skip"
      title="Skip the step"
      subject={<Subject detail={detail} stepId={stepId} />}
      submitLabel="Skip"
      reason="required"
      blocked={formProblem(output, 'output', true)}
      onSubmit={async (who) => onDone(await client.runAction(detail.run.id, { action: 'skip', step: stepId, output: output.value ?? null, by: who.by, reason: who.reason ?? '' }))}
      onClose={onClose}
    >
      <section className="action-section">
        <h3>Output</h3>
        <p className="faint action-explain">The step settles as succeeded with this output; the steps after it read it.</p>
        <SchemaForm schema={outputSchema} initial={step?.attempts.at(-1)?.output} onChange={setOutput} label="step output" testId="skip-output" />
      </section>
    </ActionDialog>
  );
}

export function ResolveDialog({ detail, stepId, client, onDone, onClose }: StepDialogProps) {
  // No default: what the step really did is the person's finding, never the dialog's guess.
  const [as, setAs] = useState<'succeeded' | 'failed' | null>(null);
  const [evidence, setEvidence] = useState<SchemaFormResult>({ value: undefined, errors: [] });
  const outputSchema = useOrderedDefinition(detail)?.steps.find((s) => s.id === stepId)?.output;
  return (
    <ActionDialog
      name="resolve"
      title="Resolve the unknown outcome"
      subject={<Subject detail={detail} stepId={stepId} />}
      submitLabel={as === null ? 'Resolve' : `Resolve as ${as}`}
      reason="optional"
      choose={as === null ? 'Choose what the step really did: succeeded or failed.' : null}
      blocked={formProblem(evidence, 'evidence', false)}
      confirm={as !== null && isExternal(detail, stepId) ? `The engine takes your word for what ${stepId} did in the other system: ${as === 'succeeded' ? 'it will not send the request again' : 'the run handles it as a failure (a retry sends the request again)'}.` : null}
      onSubmit={async (who) => {
        if (as !== null) onDone(await client.runAction(detail.run.id, { action: 'resolve', step: stepId, as, ...(evidence.value === undefined ? {} : { evidence: evidence.value }), ...who }));
      }}
      onClose={onClose}
    >
      <section className="action-section">
        <h3>What the step really did</h3>
        <div className="action-choices" role="radiogroup" aria-label="outcome">
          {(['succeeded', 'failed'] as const).map((o) => (
            <label key={o}>
              <input type="radio" name="as" checked={as === o} onChange={() => setAs(o)} data-testid={`resolve-${o}`} /> {o}
            </label>
          ))}
        </div>
      </section>
      {as !== null ? (
        <section className="action-section">
          <h3>Evidence {as === 'succeeded' ? '(taken as the step’s output)' : '(optional)'}</h3>
          <SchemaForm key={as} schema={as === 'succeeded' ? outputSchema : undefined} onChange={setEvidence} label="evidence" testId="resolve-evidence" />
        </section>
      ) : null}
    </ActionDialog>
  );
}

export function KeepDialog({ detail, stepId, client, onDone, onClose }: StepDialogProps) {
  const evidence = stepDetail(detail, stepId)?.evidence;
  return (
    <ActionDialog
      name="keep"
      title="Keep the earlier evidence"
      subject={<Subject detail={detail} stepId={stepId} />}
      submitLabel="Keep"
      reason="optional"
      onSubmit={async (who) => onDone(await client.runAction(detail.run.id, { action: 'keep', step: stepId, ...who }))}
      onClose={onClose}
    >
      <p className="muted action-explain">
        A revision changed this step’s input after its effect happened. Keeping settles it with the evidence it earned
        {evidence !== null && evidence !== undefined ? (
          <>
            {' '}
            (<span className="mono">{evidence.id}</span>, input revision {evidence.covers.inputRevision})
          </>
        ) : null}{' '}
        instead of running it again.
      </p>
    </ActionDialog>
  );
}

export function ForkDialog({ detail, stepId, client, onDone, onClose }: StepDialogProps) {
  const [input, setInput] = useState<SchemaFormResult>({ value: detail.run.input, errors: [] });
  const reruns = externalAmong(detail, downstream(detail, stepId));
  // Key order aside: the form lists the fields in the schema's order, the stored input need not.
  const changed = !sameValue(input.value ?? null, detail.run.input);
  const definition = useOrderedDefinition(detail);
  const value: JsonValue | undefined = changed ? input.value : undefined;
  const rebill = useRebill(client, detail, 'fork', stepId);
  return (
    <ActionDialog
      name="fork"
      title="Fork a new run from this step"
      subject={<Subject detail={detail} stepId={stepId} />}
      submitLabel="Fork"
      reason="optional"
      blocked={formProblem(input, 'input', false)}
      confirm={confirmText(reruns.length > 0 ? `The new run runs ${listWords(reruns)} again: ${reruns.length === 1 ? 'a step' : 'steps'} with external effects.` : null, rebill)}
      onSubmit={async (who) => onDone(await client.runAction(detail.run.id, { action: 'fork', from: stepId, ...(value === undefined ? {} : { input: value }), ...who }))}
      onClose={onClose}
    >
      <p className="faint action-explain">
        A new run of version {detail.run.version} reuses the evidence of every step before <span className="mono">{stepId}</span> and runs it and the steps after it again.
      </p>
      <section className="action-section">
        <h3>Run input {changed ? '(edited)' : '(the run’s own)'}</h3>
        <SchemaForm schema={definition?.input} initial={detail.run.input} onChange={setInput} label="run input" testId="fork-input" />
      </section>
      <RebillWarning estimate={rebill} />
    </ActionDialog>
  );
}
