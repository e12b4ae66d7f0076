// Copy and paste of steps, within a workflow and between workflows (and browser tabs): the clip
// is kept in localStorage, and also offered to the system clipboard as JSON so it can be pasted
// into a file or a chat. Pasting reads the app's own clip; the system clipboard needs a
// permission prompt, which a paste shortcut should not raise.
import { parseClip, type Clip } from './doc-ops.ts';

const KEY = 'weft.editor.clipboard';

export function writeClip(clip: Clip): void {
  const text = JSON.stringify(clip);
  try {
    localStorage.setItem(KEY, text);
  } catch {
    // Storage full or blocked: the system clipboard below may still take it.
  }
  void navigator.clipboard?.writeText(text).catch(() => undefined);
}

export function readClip(): Clip | null {
  try {
    const text = localStorage.getItem(KEY);
    return text === null ? null : parseClip(text);
  } catch {
    return null;
  }
}
