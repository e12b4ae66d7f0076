// "FILE was not imported": every problem of the file, each with where it is (line, column, the
// text around it) and how to fix it. Nothing was written; the user fixes the file and imports again.
import { X } from 'lucide-react';
import { FormModal } from '../core/form-modal.tsx';
import { SourceFindingView } from './source-finding.tsx';
import { useImportProblems } from '../files/import-problems.ts';

export function ImportProblemsDialog() {
  const refused = useImportProblems((s) => s.refused);
  const close = useImportProblems((s) => s.close);
  if (refused === null) return null;
  const n = refused.findings.length;
  return (
    <FormModal label={`${refused.fileName} was not imported`} testId="import-problems" className="import-problems" onClose={close} onSubmit={close}>
      <div className="modal-head">
        <h2>{refused.fileName} was not imported</h2>
        {/* The focus at the top, so the dialog opens on its first problem, not scrolled to its end. */}
        <button type="button" className="icon-button" onClick={close} aria-label="close" autoFocus>
          <X size={15} aria-hidden="true" />
        </button>
      </div>
      <p className="import-problems-sub" data-testid="import-problems-summary">
        It is not a workflow Weft can read: {n === 1 ? 'one problem' : `${n} problems`}. Nothing was written. Fix {n === 1 ? 'it' : 'them'} in the file and import it again.
      </p>
      <div className="import-problems-list" data-testid="import-problems-list">
        {refused.findings.map((finding, i) => (
          <SourceFindingView key={i} finding={finding} text={refused.text} />
        ))}
      </div>
      <div className="modal-actions">
        <button type="submit" className="button button-primary">
          Close
        </button>
      </div>
    </FormModal>
  );
}
