// Answers the store's focusRequest (a problem was clicked): select the element at fault, show
// the form with the field's section open, then focus the field once it is on screen.
import { useEffect, useLayoutEffect, type RefObject } from 'react';
import { useEditor } from '../editor-store.ts';
import { focusTarget } from './focus-target.ts';
import { useInspectorUi } from './inspector-ui-store.ts';
import { focusField } from './focus-registry.ts';

// Each request is answered once, also across remounts of the panel (the store keeps the last one).
let answered = 0;

export function useFocusRequest(root: RefObject<HTMLElement | null>): void {
  const request = useEditor((s) => s.focusRequest);
  useEffect(() => {
    if (request === null || request.seq === answered) return;
    answered = request.seq;
    const { doc, select } = useEditor.getState();
    if (doc === null) return;
    const target = focusTarget(doc, request.site);
    if (target === null) return;
    const { element } = target;
    select(element.type === 'workflow' ? { steps: [], edges: [] } : element.type === 'step' ? { steps: [element.id], edges: [] } : { steps: [], edges: [element.id] });
    const ui = useInspectorUi.getState();
    ui.setTab('form');
    if (target.section !== null) ui.setOpen(`${element.type}:${target.section}`, true);
    // With no field named, the element's first field takes the focus.
    ui.focusLater(target.fields.length > 0 ? target.fields : [element.type === 'edge' ? 'from' : 'id']);
  }, [request]);

  const pending = useInspectorUi((s) => s.pending);
  const selection = useEditor((s) => s.selection);
  const tab = useInspectorUi((s) => s.tab);
  useLayoutEffect(() => {
    if (pending === null || root.current === null || tab !== 'form') return;
    // The selection and the open section may land a render later than the request.
    if (focusField(root.current, pending.fields)) useInspectorUi.getState().focused();
  }, [pending, selection, tab, root]);
}
