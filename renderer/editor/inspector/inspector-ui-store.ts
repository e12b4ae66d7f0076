// What the inspector shows, apart from the document: the tab, which sections are open, and a
// field waiting to be focused. Not in the editor store: none of it is part of the document or
// of what other panels need.
import { create } from 'zustand';

export type InspectorTab = 'form' | 'json';

/** Open unless closed: the sections a step, edge or workflow shows open at first. */
const OPEN_AT_FIRST = new Set(['step:basics', 'step:config', 'step:data', 'edge:edge', 'workflow:basics', 'workflow:data', 'workflow:limits']);

interface InspectorUiState {
  tab: InspectorTab;
  open: Record<string, boolean>;
  /** `data-field` values to focus, most precise first, once the form shows them. */
  pending: { fields: string[] } | null;
  setTab(tab: InspectorTab): void;
  setOpen(section: string, open: boolean): void;
  focusLater(fields: string[]): void;
  focused(): void;
}

export const useInspectorUi = create<InspectorUiState>()((set) => ({
  tab: 'form',
  open: {},
  pending: null,
  setTab: (tab) => set({ tab }),
  setOpen: (section, open) => set((s) => ({ open: { ...s.open, [section]: open } })),
  focusLater: (fields) => set({ pending: { fields } }),
  focused: () => set({ pending: null }),
}));

export const isOpen = (open: Record<string, boolean>, section: string): boolean => open[section] ?? OPEN_AT_FIRST.has(section);
