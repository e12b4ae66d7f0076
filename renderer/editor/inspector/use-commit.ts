// Writes one field of the inspected element through the editor store. Each field has its own
// undo group, so typing in a field is one undo step and the next field starts another.
import { useEditor } from '../editor-store.ts';
import type { InspectedElement } from './focus-target.ts';
import { editField, replaceElement, type EditResult } from './element-edits.ts';
import { segmentsOf } from './form-values.ts';

export const elementKey = (element: InspectedElement): string => (element.type === 'workflow' ? 'workflow' : `${element.type}:${element.id}`);

/** Applies a pure edit of the current document; returns why it was refused, or null. */
export function applyEdit(change: (doc: NonNullable<ReturnType<typeof useEditor.getState>['doc']>) => EditResult, group?: string): string | null {
  const { doc, edit } = useEditor.getState();
  if (doc === null) return 'no workflow is open';
  const result = change(doc);
  if (!result.ok) return result.error;
  edit(() => result.doc, group);
  return null;
}

/** `commit(path, value)` for fields of `element`; `undefined` removes the field. */
/** After a rename the selection names the element by its new id, so the panel stays on it. */
function followRename(element: InspectedElement, next: unknown): void {
  if (element.type === 'workflow' || typeof next !== 'object' || next === null || !('id' in next)) return;
  const id = next.id;
  if (typeof id !== 'string' || id === element.id) return;
  useEditor.getState().select(element.type === 'step' ? { steps: [id], edges: [] } : { steps: [], edges: [id] });
}

export function commitFor(element: InspectedElement): (path: string, value: unknown) => string | null {
  const key = elementKey(element);
  return (path: string, value: unknown) => {
    const error = applyEdit((doc) => editField(doc, element, segmentsOf(path), value), `${key}:${path}`);
    if (error === null && path === 'id') followRename(element, { id: value });
    // The reason names the field; the field itself shows it, so the path prefix is noise there.
    return error !== null && error.startsWith(`${path}: `) ? error.slice(path.length + 2) : error;
  };
}

/** Replaces the whole element from the JSON view (one undo step per apply). */
export function commitElement(element: InspectedElement, value: unknown): string | null {
  const error = applyEdit((doc) => replaceElement(doc, element, value));
  if (error === null) followRename(element, value);
  return error;
}
