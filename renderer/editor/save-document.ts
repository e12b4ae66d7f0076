// Saving the open document: renames the file first when the workflow id was changed, then writes
// it (the server formats it canonically, and writes version N+1 when version N has run). The
// answer becomes the saved document; edits made while the save was in flight stay unsaved. A
// change to a step that lessons concern asks first, with the lessons to read (workflow-lessons.ts).
// Whether a save is under way, and what the last one said, live in the editor store, so the save
// command works the same from keys, the toolbar, the File menu and the desktop menu.
import { ApiError } from '../api/api-client.ts';
import { requireClients } from '../api/clients.ts';
import { askConfirm } from '../core/confirm-store.ts';
import { useRoute } from '../core/route-store.ts';
import { changedSteps, lessonsWarning, useEditorLessons } from '../core/workflow-lessons.ts';
import { refreshWorkflows } from '../core/workflow-queries.ts';
import { useEditor, type SaveMessage } from './editor-store.ts';

export type { SaveMessage } from './editor-store.ts';

/** Shows a line beside the editor's title (what a save or a File menu item did). */
export function noteSave(kind: SaveMessage['kind'], text: string): void {
  useEditor.getState().setSaving({ message: { kind, text } });
}

export async function saveDocument(): Promise<void> {
  const state = useEditor.getState();
  const doc = state.doc;
  const source = state.source;
  if (doc === null || source === null) return;
  // Lessons of earlier runs concern a step this save changes: they are read before it is saved.
  const warning = lessonsWarning(changedSteps(state.saved, doc), useEditorLessons.getState().byStep);
  if (warning !== null && !(await askConfirm({ ...warning, confirm: 'Save anyway', cancel: 'Review first' }))) {
    noteSave('info', 'Not saved: review the lessons in the step’s inspector, then save again');
    return;
  }
  state.setSaving({ busy: true, message: null });
  try {
    const files = requireClients().files;
    let hash = source.hash ?? undefined;
    const renamed = doc.id !== source.workflowId;
    if (renamed) hash = (await files.rename(source.workflowId, doc.id)).hash;
    const result = await files.save(doc, hash);
    const now = useEditor.getState();
    const saved = result.definition;
    const nextSource = { workflowId: saved.id, file: result.summary.file, hash: result.hash };
    if (now.doc === doc) now.markSaved(saved, nextSource);
    else useEditor.setState({ saved, source: nextSource, doc: now.doc === null ? null : { ...now.doc, version: result.version } });
    noteSave(
      result.bumped !== undefined ? 'info' : 'ok',
      result.bumped !== undefined
        ? `Saved as v${result.bumped.to}: v${result.bumped.from} has run and stays as it ran`
        : result.unchanged
          ? 'No changes: the file already holds this'
          : `Saved v${result.version}`,
    );
    void refreshWorkflows();
    if (renamed) useRoute.getState().go({ page: 'workflow', id: saved.id });
  } catch (error) {
    const text =
      error instanceof ApiError && error.code === 'refused'
        ? `Not saved: ${error.message}. Your changes are kept as a draft.`
        : `Not saved: ${error instanceof Error ? error.message : String(error)}`;
    noteSave('error', text);
  } finally {
    useEditor.getState().setSaving({ busy: false });
  }
}
