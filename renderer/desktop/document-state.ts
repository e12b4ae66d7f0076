// What the window title says (through the desktop shell): the open workflow's file name with its
// unsaved state in the editor, the run id on a run page, the section's name elsewhere.
import type { DocumentState } from '../../shared/desktop/preload-contract.ts';
import type { Route } from '../core/route.ts';

const MAX_TITLE = 300;
const MAX_FILE = 1000;

export interface EditorFacts {
  /** The open document's file within the workspace; null while none is open. */
  file: string | null;
  dirty: boolean;
}

const clip = (text: string): string => (text.length <= MAX_TITLE ? text : `${text.slice(0, MAX_TITLE - 1)}…`);

/** The file's own name: the title names the file, the shell knows the workspace. */
const baseName = (file: string): string => file.split(/[\\/]/).at(-1) ?? file;

export function documentStateFor(route: Route, editor: EditorFacts): DocumentState {
  switch (route.page) {
    case 'workflow': {
      if (editor.file === null) return { title: clip(route.id), dirty: false };
      const state: DocumentState = { title: clip(baseName(editor.file)), dirty: editor.dirty };
      return editor.file.length <= MAX_FILE ? { ...state, file: editor.file } : state;
    }
    case 'file':
      return { title: clip(baseName(route.file)), dirty: false };
    case 'run':
      return { title: clip(`Run ${route.id}`), dirty: false };
    case 'workflows':
      return { title: 'Workflows', dirty: false };
    case 'runs':
      return { title: route.workflow === undefined ? 'Runs' : clip(`Runs of ${route.workflow}`), dirty: false };
    case 'tasks':
      return { title: 'Tasks', dirty: false };
    case 'policy':
      return { title: 'Policy', dirty: false };
    case 'insights':
      return { title: clip(`Insights of ${route.id}`), dirty: false };
    case 'compare':
      return { title: 'Compare runs', dirty: false };
  }
}
