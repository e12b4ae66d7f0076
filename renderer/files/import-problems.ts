// The problems of a file that was not imported, shown by the app's dialog (renderer/workflows/import-problems-dialog.tsx,
// rendered once by the app) whichever page imported it: the workflows list, the editor's File
// menu or the desktop menu.
import { create } from 'zustand';
import type { SourceFinding } from '../../shared/api/workflow-views.ts';

export interface RefusedImport {
  fileName: string;
  text: string;
  findings: SourceFinding[];
}

export const useImportProblems = create<{ refused: RefusedImport | null; close(): void }>((set) => ({
  refused: null,
  close: () => set({ refused: null }),
}));

export function showImportProblems(refused: RefusedImport): void {
  useImportProblems.setState({ refused });
}
