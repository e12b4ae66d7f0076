// The editor's view preferences, kept across sessions in localStorage: snap to grid and which
// panels beside the canvas are open (the palette, the inspector, the minimap). Not part of the
// document, so not undoable. The Problems dock is not here: it follows whether there are
// problems (problems-dock-store.ts).
import { create } from 'zustand';

export type EditorPref = 'snapToGrid' | 'showPalette' | 'showInspector' | 'showMinimap';

type PrefValues = Record<EditorPref, boolean>;

interface EditorPrefs extends PrefValues {
  toggle(key: EditorPref): void;
}

const KEY = 'weft.editor.prefs';

/** The page's localStorage, read through globalThis: the command registry loads this file in Node tests too. */
interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}
const isStore = (s: unknown): s is KeyValueStore => typeof s === 'object' && s !== null && typeof Reflect.get(s, 'getItem') === 'function' && typeof Reflect.get(s, 'setItem') === 'function';
function storage(): KeyValueStore | undefined {
  const s: unknown = Reflect.get(globalThis, 'localStorage');
  return isStore(s) ? s : undefined;
}
const DEFAULTS: PrefValues = { snapToGrid: false, showPalette: true, showInspector: true, showMinimap: true };
const pick = (from: (k: EditorPref) => boolean): PrefValues => ({ snapToGrid: from('snapToGrid'), showPalette: from('showPalette'), showInspector: from('showInspector'), showMinimap: from('showMinimap') });

function load(): PrefValues {
  try {
    const raw: unknown = JSON.parse(storage()?.getItem(KEY) ?? 'null');
    if (typeof raw !== 'object' || raw === null) return DEFAULTS;
    const read = (k: EditorPref): boolean => {
      const v: unknown = Reflect.get(raw, k);
      return typeof v === 'boolean' ? v : DEFAULTS[k];
    };
    return pick(read);
  } catch {
    return DEFAULTS;
  }
}

export const useEditorPrefs = create<EditorPrefs>((set, get) => ({
  ...load(),
  toggle(key) {
    set({ [key]: !get()[key] });
    const state = get();
    try {
      storage()?.setItem(KEY, JSON.stringify(pick((k) => state[k])));
    } catch {
      // A full or blocked storage only loses the preference.
    }
  },
}));
