// The browser's services to the editor's commands: saving through the server, the clipboard,
// the layout worker, the stored view preferences, the file actions.
import { autoLayout } from '../graph/auto-layout.ts';
import type { EditorHost } from './editor-host-port.ts';
import { readClip, writeClip } from './clipboard.ts';
import { useEditorPrefs } from './editor-prefs.ts';
import { useProblemsDock } from './problems-dock-store.ts';
import { saveDocument } from './save-document.ts';
import { deleteFile, exportFile, importFile, renameFile } from './file-actions.ts';

export const BROWSER_HOST: EditorHost = {
  save: saveDocument,
  layout: autoLayout,
  readClip,
  writeClip,
  togglePref: (pref) => (pref === 'showProblems' ? useProblemsDock.getState().toggle() : useEditorPrefs.getState().toggle(pref)),
  // The panel renders with the tab; bring it into view once it is there.
  revealHandoffs: () => void requestAnimationFrame(() => document.querySelector('[data-testid="handoffs"]')?.scrollIntoView({ block: 'nearest' })),
  renameFile,
  exportFile,
  importFile,
  deleteFile,
};
