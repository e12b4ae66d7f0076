// What clicking a problem does: select its step or edge, centre the canvas on it, and ask the
// inspector to focus the field at fault (in the document as it is now, where the step may sit
// at another index than in the document that was checked).
import type { Diagnostic } from '../../../shared/validator/diagnostic.ts';
import { NO_SELECTION, useEditor } from '../editor-store.ts';
import { focusSite, locateDiagnostic } from './diagnostic-target.ts';
import { runCommand } from '../editor-commands.ts';
import { focusFieldCommand, revealCommand } from '../step-commands.ts';
import { useValidation } from './validation-store.ts';

/** Returns false when the problem's step or edge is no longer in the document. */
export function activateProblem(d: Diagnostic): boolean {
  const editor = useEditor.getState();
  const location = locateDiagnostic(d, useValidation.getState().checkedDoc ?? editor.doc);
  const site = focusSite(location, editor.doc);
  if (site === null) return false;
  const { target } = location;
  if (target.kind === 'step') {
    editor.select({ steps: [target.stepId], edges: [] });
    runCommand(revealCommand, { stepId: target.stepId });
  } else if (target.kind === 'edge') {
    editor.select({ steps: [], edges: [target.edgeId] });
    runCommand(revealCommand, { edgeId: target.edgeId });
  } else {
    // Nothing selected: the inspector shows the workflow itself.
    editor.select(NO_SELECTION);
  }
  runCommand(focusFieldCommand, site);
  return true;
}
