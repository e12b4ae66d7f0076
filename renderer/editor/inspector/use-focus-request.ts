// Focuses the field the focusField command asked for (a problem was clicked) once the form shows
// it: the selection and the open section may land a render later than the command.
import { useLayoutEffect, type RefObject } from 'react';
import { useEditor } from '../editor-store.ts';
import { useInspectorUi } from './inspector-ui-store.ts';
import { focusField } from './focus-registry.ts';

export function useFocusRequest(root: RefObject<HTMLElement | null>): void {
  const pending = useInspectorUi((s) => s.pending);
  const selection = useEditor((s) => s.selection);
  const tab = useInspectorUi((s) => s.tab);
  useLayoutEffect(() => {
    if (pending === null || root.current === null || tab !== 'form') return;
    if (focusField(root.current, pending.fields)) useInspectorUi.getState().focused();
  }, [pending, selection, tab, root]);
}
