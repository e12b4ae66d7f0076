// What editor commands need of the page beyond the store, as a type of its own: the store holds
// the installed host and the commands call it, so neither file imports the other for it.
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { Clip, Layout } from './doc-ops.ts';
import type { EditorPref } from './editor-prefs.ts';

/**
 * What the commands need of the page beyond the store: the server, the clipboard, the layout
 * worker, the stored preferences. The workbench installs the browser's (editor-host.ts) while it
 * is shown; tests install their own.
 */
export interface EditorHost {
  save(): Promise<void>;
  layout(doc: Workflow): Promise<Layout>;
  readClip(): Clip | null;
  writeClip(clip: Clip): void;
  /** Flips a view preference, or opens or folds the Problems dock. */
  togglePref(pref: EditorPref | 'showProblems'): void;
  /** Scrolls the handoffs panel into view once it is on screen. */
  revealHandoffs(): void;
  renameFile(): Promise<void>;
  exportFile(): Promise<void>;
  importFile(): Promise<void>;
  deleteFile(): Promise<void>;
}
