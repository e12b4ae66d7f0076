// The dialog of askConfirm (renderer/core/confirm-store.ts): a title, a sentence, and two buttons
// in the user's words. The safe answer has the focus, so Enter or Escape keeps things as they are.
import { useEffect, useRef } from 'react';
import { FormModal } from '../core/form-modal.tsx';
import { useConfirm } from '../core/confirm-store.ts';
import './confirm-dialog.css';

export function ConfirmDialog() {
  const pending = useConfirm((s) => s.pending);
  const safe = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (pending !== null) safe.current?.focus();
  }, [pending]);
  if (pending === null) return null;
  return (
    <FormModal label={pending.title} testId="confirm-dialog" className="confirm-dialog" onClose={() => pending.answer(false)} onSubmit={() => pending.answer(true)}>
      <div className="modal-head">
        <h2>{pending.title}</h2>
      </div>
      <p className="confirm-body" data-testid="confirm-body">
        {pending.body}
      </p>
      <div className="modal-actions">
        <button ref={safe} type="button" className="button" onClick={() => pending.answer(false)} data-testid="confirm-cancel">
          {pending.cancel}
        </button>
        <button type="submit" className={`button ${pending.danger === true ? 'button-danger' : 'button-primary'}`} data-testid="confirm-ok">
          {pending.confirm}
        </button>
      </div>
    </FormModal>
  );
}
