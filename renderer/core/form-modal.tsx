// A modal dialog that is a form: a backdrop that closes it when clicked, Escape to close, and
// submit (Enter or the submit button) handed to the caller. The app's dialogs that ask for
// input (new workflow, start a run, every run action) share it. It takes the focus, keeps Tab
// inside and gives the focus back on close (use-dialog-focus.ts).
import { useImperativeHandle, useRef, type ReactNode, type Ref } from 'react';
import { trapTab, useDialogFocus } from './use-dialog-focus.ts';

interface Props {
  label: string;
  testId: string;
  className?: string;
  onClose(): void;
  onSubmit(): void;
  formRef?: Ref<HTMLFormElement>;
  children: ReactNode;
}

export function FormModal({ label, testId, className, onClose, onSubmit, formRef, children }: Props) {
  const form = useRef<HTMLFormElement>(null);
  useImperativeHandle<HTMLFormElement | null, HTMLFormElement | null>(formRef, () => form.current, []);
  useDialogFocus(form);
  return (
    <div className="modal-backdrop" onClick={onClose}>
      <form
        ref={form}
        className={`modal form-modal${className === undefined ? '' : ` ${className}`}`}
        role="dialog"
        aria-modal="true"
        aria-label={label}
        data-testid={testId}
        onClick={(e) => e.stopPropagation()}
        onKeyDown={(e) => (e.key === 'Escape' ? onClose() : trapTab(e))}
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        {children}
      </form>
    </div>
  );
}
