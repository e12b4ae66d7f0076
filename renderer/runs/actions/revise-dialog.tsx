// Revise the run's input: edit it, preview the plan the engine would act on (a dry run: which
// steps run again, reuse or keep their evidence, wait for a decision, stay unknown, or are decided
// later), then apply it. An edit after the preview drops the plan: only a plan for this very input
// is applied. A plan that runs an external step again, or bills steps again (rebill-warning.tsx),
// asks for a confirmation.
import { useState } from 'react';
import type { RevisePlan } from '../../../shared/api/input-commands.ts';
import type { JsonValue } from '../../../shared/api/json-value.ts';
import type { RunActionResult } from '../../../shared/api/run-action.ts';
import type { RunDetail } from '../../../shared/api/run-detail.ts';
import { sameValue } from '../../../shared/definition/workflow-diff.ts';
import { errorMessage, type RunActionsClient } from '../../api/run-actions-client.ts';
import { SchemaForm, type SchemaFormResult } from '../../forms/schema-form.tsx';
import { ActionDialog } from './action-dialog.tsx';
import { RevisePlanTable } from './revise-plan-table.tsx';
import { confirmText, RebillWarning } from './rebill-warning.tsx';
import { externalReruns, listWords } from './run-facts.ts';
import { useOrderedDefinition } from './ordered-definition.ts';
import { useActor } from './who.ts';

export interface ReviseDialogProps {
  detail: RunDetail;
  client: RunActionsClient;
  onDone(result: RunActionResult): void;
  onClose(): void;
}

export function ReviseDialog({ detail, client, onDone, onClose }: ReviseDialogProps) {
  const runId = detail.run.id;
  const definition = useOrderedDefinition(detail);
  const [actor] = useActor();
  const [form, setForm] = useState<SchemaFormResult>({ value: detail.run.input, errors: [] });
  const [plan, setPlan] = useState<{ for: string; plan: RevisePlan } | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState(false);
  const inputKey = JSON.stringify(form.value ?? null);
  const current = plan !== null && plan.for === inputKey ? plan.plan : null;
  const input: JsonValue = form.value ?? null;
  // Key order aside: the form lists the fields in the schema's order, the stored input need not.
  const unchanged = sameValue(form.value ?? null, detail.run.input);

  const preview = async () => {
    setPreviewing(true);
    setPreviewError(null);
    try {
      setPlan({ for: inputKey, plan: await client.revisePlan(runId, { action: 'revise', input, by: actor }) });
    } catch (e) {
      setPreviewError(errorMessage(e));
    } finally {
      setPreviewing(false);
    }
  };
  const reruns = current === null ? [] : externalReruns(detail, current.plan);
  const blocked = form.errors[0] !== undefined ? `Fix the input first: ${form.errors[0].path}: ${form.errors[0].message}.` : unchanged ? 'Change the input first: this is the run’s input now.' : current === null ? 'Preview the plan first, to see what runs again.' : null;

  return (
    <ActionDialog
      name="revise"
      title="Revise the run input"
      subject={<span className="mono">{runId}</span>}
      submitLabel="Apply revision"
      reason="optional"
      blocked={blocked}
      confirm={confirmText(reruns.length > 0 ? `This revision runs ${listWords(reruns)} again: ${reruns.length === 1 ? 'a step' : 'steps'} with external effects (requests to other systems are sent again).` : null, current?.rebill)}
      onSubmit={async (who) => onDone(await client.runAction(runId, { action: 'revise', input, ...who }))}
      onClose={onClose}
    >
      <section className="action-section">
        <h3>New input (revision {detail.run.inputRevision + 1})</h3>
        <SchemaForm schema={definition?.input} initial={detail.run.input} onChange={setForm} label="run input" testId="revise-input" />
      </section>
      <section className="action-section" aria-live="polite">
        <div>
          <button type="button" className="button" onClick={() => void preview()} disabled={previewing || form.errors.length > 0 || unchanged} data-testid="revise-preview">
            {previewing ? 'Asking the engine…' : current === null ? 'Preview the plan' : 'Preview again'}
          </button>
        </div>
        {previewError !== null ? (
          <div className="action-error" role="alert" data-testid="action-error">
            {previewError}
          </div>
        ) : null}
        {current !== null ? <RebillWarning estimate={current.rebill} /> : null}
        {current !== null ? <RevisePlanTable detail={detail} plan={current} /> : plan !== null ? <p className="plan-summary">The input changed since the preview: preview again.</p> : null}
      </section>
    </ActionDialog>
  );
}
