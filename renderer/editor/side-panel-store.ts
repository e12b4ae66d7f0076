// Which tab the editor's side panel shows: its own tabs and the desktop View menu both pick it.
import { create } from 'zustand';

export type SidePanelTab = 'inspect' | 'history';

export const useSidePanel = create<{ tab: SidePanelTab; show(tab: SidePanelTab): void }>((set) => ({
  tab: 'inspect',
  show(tab) {
    set({ tab });
  },
}));
