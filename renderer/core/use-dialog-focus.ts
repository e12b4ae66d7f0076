// A dialog's focus, for the keyboard: it takes the focus when it opens (unless one of its own
// fields already took it), Tab and Shift+Tab go round inside it rather than to the page behind,
// and when it closes the focus goes back to what opened it, when that is still on the page.
import { useEffect, useState, type KeyboardEvent, type RefObject } from 'react';

const TABBABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [contenteditable="true"], [tabindex]:not([tabindex="-1"])';

/** The elements Tab stops at inside `root`, in order (shown ones only). */
export function tabbablesIn(root: Element): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(TABBABLE)].filter((el) => el.tabIndex >= 0 && el.getClientRects().length > 0);
}

/** Where the last dialog to close gave the focus back: the opener of a dialog opened from inside it. */
let givenBack: Element | null = null;

/** Takes the focus into the dialog at `ref` when it opens and gives it back when it closes. */
export function useDialogFocus(ref: RefObject<HTMLElement | null>): void {
  // Read at the first render: by the effects, a field of the dialog may have taken the focus.
  const [opener] = useState(() => document.activeElement);
  useEffect(() => {
    // Opened from a dialog that has just closed (a picker leading to the next): that one's opener.
    const from = opener?.isConnected === true ? opener : givenBack;
    const dialog = ref.current;
    // Children's effects ran first: a dialog that focused its first field keeps it.
    if (dialog !== null && !dialog.contains(document.activeElement)) tabbablesIn(dialog)[0]?.focus();
    return () => {
      const active = document.activeElement;
      const lost = active === null || active === document.body || dialog?.contains(active) === true || active.isConnected === false;
      if (!lost || !(from instanceof HTMLElement || from instanceof SVGElement) || !from.isConnected) return;
      from.focus();
      givenBack = from;
    };
  }, [ref, opener]);
}

/** Keeps Tab inside the dialog: put on the dialog as onKeyDown. */
export function trapTab(event: KeyboardEvent<HTMLElement>): void {
  if (event.key !== 'Tab' || event.defaultPrevented) return;
  const stops = tabbablesIn(event.currentTarget);
  const first = stops[0];
  const last = stops[stops.length - 1];
  if (first === undefined || last === undefined) return;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || !event.currentTarget.contains(active))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !event.currentTarget.contains(active))) {
    event.preventDefault();
    first.focus();
  }
}
