// "New workflow": an id (the file's name), a display name, and what to start from: empty, or
// one of the examples, each a card to scan: its name, a one-line summary (the whole description on
// hover), its step count and the kinds it uses. The id is checked as it is typed; the server
// refuses one that exists.
import { FormModal } from '../core/form-modal.tsx';
import { useEffect, useRef, useState } from 'react';
import { X } from 'lucide-react';
import { WORKFLOW_ID_PATTERN } from '../../shared/definition/names.ts';
import type { TemplateSummary } from '../../shared/api/workflow-files.ts';
import { requireClients } from '../api/clients.ts';
import { useRoute } from '../core/route-store.ts';
import { refreshWorkflows } from '../core/workflow-queries.ts';
import { firstSentence } from './template-summary.ts';
import './new-workflow-dialog.css';

export function NewWorkflowDialog({ onClose }: { onClose(): void }) {
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  const [from, setFrom] = useState('empty');
  const [templates, setTemplates] = useState<TemplateSummary[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => {
    first.current?.focus();
    requireClients().files
      .templates()
      .then(
        (list) => setTemplates(list.templates),
        () => setTemplates([]),
      );
  }, []);
  const idProblem = id === '' ? null : WORKFLOW_ID_PATTERN.test(id) ? null : 'lower-case letters, digits and -, starting with a letter or digit';
  const submit = async () => {
    if (id === '' || idProblem !== null) return;
    setBusy(true);
    setError(null);
    try {
      await requireClients().files.create({ id, ...(name.trim() === '' ? {} : { name: name.trim() }), from });
      await refreshWorkflows();
      onClose();
      useRoute.getState().go({ page: 'workflow', id });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <FormModal label="new workflow" testId="new-workflow-dialog" onClose={onClose} onSubmit={() => void submit()}>
        <div className="modal-head">
          <h2>New workflow</h2>
          <button type="button" className="icon-button" onClick={onClose} aria-label="close">
            <X size={15} aria-hidden="true" />
          </button>
        </div>
        <label className="form-row">
          <span>Id</span>
          <input ref={first} className="text-input mono" value={id} onChange={(e) => setId(e.target.value.trim())} placeholder="order-flow" aria-invalid={idProblem !== null} data-testid="new-workflow-id" />
          <small className={idProblem === null ? 'faint' : 'form-error'}>{idProblem ?? `saved as ${id === '' ? 'ID' : id}.weft.json in the workspace`}</small>
        </label>
        <label className="form-row">
          <span>Name</span>
          <input className="text-input" value={name} onChange={(e) => setName(e.target.value)} placeholder="Order flow" data-testid="new-workflow-name" />
        </label>
        <fieldset className="form-row template-choices">
          <legend>Start from</legend>
          <label className="template-choice template-card">
            <input type="radio" name="from" value="empty" checked={from === 'empty'} onChange={() => setFrom('empty')} />
            <span className="template-text">
              <span className="template-name">Empty</span>
              <span className="template-summary">A start step and an end, to draw your own.</span>
              <span className="template-facts">
                <span className="template-fact">2 steps</span>
              </span>
            </span>
          </label>
          {templates.map((t) => (
            <label key={t.id} className="template-choice template-card" title={t.description ?? undefined} data-testid={`template-card-${t.id}`}>
              <input type="radio" name="from" value={t.id} checked={from === t.id} onChange={() => setFrom(t.id)} data-testid={`template-${t.id}`} />
              <span className="template-text">
                <span className="template-name">{t.name}</span>
                {t.description !== null ? (
                  <span className="template-summary" data-testid="template-summary">
                    {firstSentence(t.description)}
                  </span>
                ) : null}
                <span className="template-facts" data-testid="template-facts">
                  <span className="template-fact">{t.stepCount} steps</span>
                  {(t.kinds ?? []).map((kind) => (
                    <span key={kind} className="template-kind" data-testid="template-kind">
                      {kind}
                    </span>
                  ))}
                </span>
              </span>
            </label>
          ))}
        </fieldset>
        {error !== null ? (
          <div className="form-error" role="alert">
            {error}
          </div>
        ) : null}
        <div className="modal-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={busy || id === '' || idProblem !== null} data-testid="new-workflow-create">
            Create
          </button>
        </div>
    </FormModal>
  );
}
