// Fields whose focus is more than `element.focus()` (the code editor places a cursor) register
// here under their `data-field` path; other fields are focused through the DOM.
import type { CodeInputHandle } from './code-input.tsx';

const handles = new Map<string, CodeInputHandle>();

export function registerFocus(path: string, handle: CodeInputHandle | null): void {
  if (handle === null) handles.delete(path);
  else handles.set(path, handle);
}

const FOCUSABLE = 'input:not([type=hidden]), select, textarea, button, [contenteditable=true], [tabindex]';

/** Focuses and scrolls to the first of `fields` the panel shows; false when it shows none. */
export function focusField(root: HTMLElement, fields: readonly string[]): boolean {
  for (const path of fields) {
    const box = root.querySelector<HTMLElement>(`[data-field="${CSS.escape(path)}"]`);
    if (box === null) continue;
    box.scrollIntoView({ block: 'center' });
    const handle = handles.get(path);
    if (handle !== undefined) handle.focus();
    else box.querySelector<HTMLElement>(FOCUSABLE)?.focus();
    box.classList.remove('ins-flash');
    // Reflow between remove and add restarts the highlight when the same field is asked for twice.
    void box.offsetWidth;
    box.classList.add('ins-flash');
    return true;
  }
  return false;
}
