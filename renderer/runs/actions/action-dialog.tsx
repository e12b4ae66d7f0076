// The frame of every action dialog: what the action is about, its own fields, who acts and why,
// a confirmation step when the action has consequences outside Weft, and the engine's refusal
// word for word when it refuses. The dialog closes only when the engine accepted the action.
import { FormModal } from '../../core/form-modal.tsx';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { AlertTriangle, X } from 'lucide-react';
import { errorMessage } from '../../api/run-actions-client.ts';
import { useActor } from './who.ts';
import './actions.css';

/** Who acts and why, as the command records them. */
export interface WhoAndWhy {
  by: string;
  /** Absent when left empty (optional reasons) or when the action takes none. */
  reason?: string;
}

export interface ActionDialogProps {
  /** The test id is `dialog-${name}`. */
  name: string;
  title: string;
  /** What it acts on: the run, the step. */
  subject?: ReactNode;
  submitLabel: string;
  danger?: boolean;
  /** A reason is asked for: required (skip, reject), optional, or not taken (approve, reassign). */
  reason: 'required' | 'optional' | 'none';
  /** The consequences outside Weft, said before sending; a second click confirms. Null: none. */
  confirm?: string | null;
  /** Why the action cannot be sent yet (an input that does not parse); null when it can. */
  blocked?: string | null;
  /**
   * A choice the person must make before anything can be sent (no default is safe, as for an
   * unknown outcome): the submit button stays disabled and this says why, beside it. Null: none.
   */
  choose?: string | null;
  /** Sends the action; a throw shows its message (the engine's refusal) and keeps the dialog open. */
  onSubmit(who: WhoAndWhy): Promise<void>;
  onClose(): void;
  children?: ReactNode;
}

export function ActionDialog(props: ActionDialogProps) {
  const { name, title, subject, submitLabel, danger = false, reason: reasonRule, confirm = null, blocked = null, choose = null, onSubmit, onClose, children } = props;
  const [by, setBy] = useActor();
  const [reason, setReason] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [tried, setTried] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    form.current?.querySelector<HTMLElement>('input, textarea, select, [contenteditable="true"]')?.focus();
  }, []);

  const reasonMissing = reasonRule === 'required' && reason.trim() === '';
  const problem = choose ?? (by.trim() === '' ? 'Say who acts.' : reasonMissing ? 'Give a reason: it is kept in the run’s log.' : blocked);
  const send = async () => {
    setTried(true);
    if (problem !== null) return;
    if (confirm !== null && !confirming) return setConfirming(true);
    setBusy(true);
    setError(null);
    try {
      await onSubmit({ by: by.trim(), ...(reasonRule !== 'none' && reason.trim() !== '' ? { reason: reason.trim() } : {}) });
      onClose();
    } catch (e) {
      setError(errorMessage(e));
      setConfirming(false);
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormModal label={title} testId={`dialog-${name}`} className="action-dialog" onClose={onClose} onSubmit={() => void send()} formRef={form}>
        <div className="modal-head">
          <div>
            <h2>{title}</h2>
            {subject !== undefined ? <div className="action-subject">{subject}</div> : null}
          </div>
          <button type="button" className="icon-button" onClick={onClose} aria-label="close">
            <X size={15} aria-hidden="true" />
          </button>
        </div>
        <fieldset className="action-body" disabled={confirming || busy}>
          {children}
          <div className="action-who">
            <label className="form-row">
              <span>By</span>
              <input className="text-input" value={by} onChange={(e) => setBy(e.target.value)} aria-invalid={tried && by.trim() === ''} data-testid="action-by" />
            </label>
            {reasonRule !== 'none' ? (
              <label className="form-row action-reason">
                <span>
                  Reason{reasonRule === 'required' ? <abbr className="required-mark" title="required">*</abbr> : <small className="faint"> (optional)</small>}
                </span>
                <textarea
                  className="text-input action-textarea"
                  value={reason}
                  onChange={(e) => setReason(e.target.value)}
                  placeholder="Kept in the run's log with your name"
                  aria-invalid={tried && reasonMissing}
                  rows={2}
                  data-testid="action-reason"
                />
              </label>
            ) : null}
          </div>
        </fieldset>
        {choose !== null ? (
          <div className="action-choose" id={`${name}-choose`} data-testid="action-choose">
            {choose}
          </div>
        ) : null}
        {tried && problem !== null && problem !== choose ? (
          <div className="form-error" role="alert" data-testid="action-problem">
            {problem}
          </div>
        ) : null}
        {error !== null ? (
          <div className="action-error" role="alert" data-testid="action-error">
            <AlertTriangle size={14} aria-hidden="true" />
            <span>{error}</span>
          </div>
        ) : null}
        {confirming && confirm !== null ? (
          <div className="action-confirm" role="alertdialog" aria-label="confirm" data-testid="confirm-panel">
            <AlertTriangle size={16} aria-hidden="true" />
            <p>{confirm}</p>
          </div>
        ) : null}
        <div className="modal-actions">
          <button type="button" className="button" onClick={confirming ? () => setConfirming(false) : onClose}>
            {confirming ? 'Back' : 'Cancel'}
          </button>
          {confirming ? (
            <button type="submit" className={`button button-primary${danger ? ' button-danger-solid' : ''}`} disabled={busy} data-testid="confirm-action">
              Yes, {submitLabel.toLowerCase()}
            </button>
          ) : (
            <button
              type="submit"
              className={`button button-primary${danger ? ' button-danger-solid' : ''}`}
              disabled={busy || choose !== null}
              title={choose ?? undefined}
              aria-describedby={choose !== null ? `${name}-choose` : undefined}
              data-testid="submit-action"
            >
              {busy ? 'Sending…' : submitLabel}
              {confirm !== null ? '…' : ''}
            </button>
          )}
        </div>
    </FormModal>
  );
}
