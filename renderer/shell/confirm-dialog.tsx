// The dialog of askConfirm and askText (renderer/core/confirm-store.ts): a title, a sentence, a
// line to type when one is asked for (what is wrong with it shown as it is typed), and two buttons
// in the user's words. Without a line, the safe answer has the focus, so Enter or Escape keeps
// things as they are; with one, the line has the focus, its text selected.
import { useEffect, useId, useRef, useState } from 'react';
import { FormModal } from '../core/form-modal.tsx';
import { useConfirm } from '../core/confirm-store.ts';
import './confirm-dialog.css';

export function ConfirmDialog() {
  const pending = useConfirm((s) => s.pending);
  const safe = useRef<HTMLButtonElement>(null);
  const line = useRef<HTMLInputElement>(null);
  const [value, setValue] = useState('');
  const [tried, setTried] = useState(false);
  const problemId = useId();
  useEffect(() => {
    if (pending === null) return;
    setValue(pending.input?.initial ?? '');
    setTried(false);
    if (pending.input !== undefined) {
      line.current?.focus();
      line.current?.select();
    } else safe.current?.focus();
  }, [pending]);
  if (pending === null) return null;
  const input = pending.input;
  const problem = input === undefined ? null : input.problem(value);
  // The problem shows once the line was changed or sent: not before the user has typed anything.
  const shown = problem !== null && (tried || value !== input?.initial) ? problem : null;
  const submit = () => {
    if (input === undefined) return pending.answer(true);
    setTried(true);
    if (problem === null) pending.answer(true, value);
  };
  return (
    <FormModal label={pending.title} testId="confirm-dialog" className="confirm-dialog" onClose={() => pending.answer(false)} onSubmit={submit}>
      <div className="modal-head">
        <h2>{pending.title}</h2>
      </div>
      <p className="confirm-body" data-testid="confirm-body">
        {pending.body}
      </p>
      {input !== undefined ? (
        <label className="form-row confirm-line">
          <span>{input.label}</span>
          <input
            ref={line}
            className="text-input mono"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            aria-invalid={shown !== null}
            aria-describedby={shown !== null ? problemId : undefined}
            spellCheck={false}
            autoComplete="off"
            data-testid="confirm-input"
          />
        </label>
      ) : null}
      {shown !== null ? (
        <div className="form-error" id={problemId} role="alert" data-testid="confirm-problem">
          {shown}
        </div>
      ) : null}
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
