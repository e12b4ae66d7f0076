// The head of a modal dialog: its title, what it is about, and the close button, as every dialog
// of the app draws them (the dialogs of issue 22 share this one; older ones still draw their own).
import type { ReactNode } from 'react';
import { X } from 'lucide-react';

export function ModalHead({ title, subject, onClose }: { title: ReactNode; subject?: ReactNode; onClose(): void }) {
  return (
    <div className="modal-head">
      <div>
        <h2>{title}</h2>
        {subject !== undefined ? <div className="action-subject">{subject}</div> : null}
      </div>
      <button type="button" className="icon-button" onClick={onClose} aria-label="close">
        <X size={15} aria-hidden="true" />
      </button>
    </div>
  );
}
