// The editor's view preferences, kept across sessions in localStorage: snap to grid and which
// panels are open. Not part of the document, so not undoable.
import { create } from 'zustand';

interface EditorPrefs {
  snapToGrid: boolean;
  showProblems: boolean;
  showPalette: boolean;
  toggle(key: 'snapToGrid' | 'showProblems' | 'showPalette'): void;
}

const KEY = 'weft.editor.prefs';

function load(): Pick<EditorPrefs, 'snapToGrid' | 'showProblems' | 'showPalette'> {
  const fallback = { snapToGrid: false, showProblems: true, showPalette: true };
  try {
    const raw: unknown = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? 'null');
    if (typeof raw !== 'object' || raw === null) return fallback;
    const read = (k: keyof typeof fallback): boolean => {
      const v: unknown = Reflect.get(raw, k);
      return typeof v === 'boolean' ? v : fallback[k];
    };
    return { snapToGrid: read('snapToGrid'), showProblems: read('showProblems'), showPalette: read('showPalette') };
  } catch {
    return fallback;
  }
}

export const useEditorPrefs = create<EditorPrefs>((set, get) => ({
  ...load(),
  toggle(key) {
    set({ [key]: !get()[key] });
    const { snapToGrid, showProblems, showPalette } = get();
    try {
      globalThis.localStorage?.setItem(KEY, JSON.stringify({ snapToGrid, showProblems, showPalette }));
    } catch {
      // A full or blocked storage only loses the preference.
    }
  },
}));
