// What the editor's file commands do in the page: rename, export, import and delete the
// workflow file that is open (the File menu and the desktop File menu reach them as commands).
import { WORKFLOW_ID_PATTERN } from '../../shared/definition/names.ts';
import { requireClients } from '../api/clients.ts';
import { askConfirm, askText } from '../core/confirm-store.ts';
import { useRoute } from '../core/route-store.ts';
import { refreshWorkflows } from '../core/workflow-queries.ts';
import { exportWorkflow, importAndOpen } from '../files/file-transfer.ts';
import { isDirty, useEditor } from './editor-store.ts';
import { noteSave, saveDocument } from './save-document.ts';

const openId = (): string => useEditor.getState().source?.workflowId ?? '';

/** What is wrong with a new workflow id, in the words the dialog shows as it is typed. */
export function workflowIdProblem(to: string): string | null {
  if (to === '') return 'Give the new id.';
  return WORKFLOW_ID_PATTERN.test(to) ? null : `"${to}" is not a workflow id: use lower-case letters, digits and -, starting with a letter or digit.`;
}

export async function renameFile(): Promise<void> {
  const from = useEditor.getState().doc?.id ?? '';
  const to = await askText({
    title: 'Rename the workflow',
    body: `The id of ${from} is also its file name: the file becomes NEW-ID.weft.json, saved with the changes you made.`,
    input: { label: 'New id', initial: from, problem: workflowIdProblem },
    confirm: 'Rename',
    cancel: 'Cancel',
  });
  if (to === null || to === openId()) return;
  useEditor.getState().edit((d) => ({ ...d, id: to }));
  await saveDocument();
}

export async function exportFile(): Promise<void> {
  if (isDirty(useEditor.getState())) noteSave('error', 'Exported the file as last saved: save first to export your changes');
  await exportWorkflow(openId());
}

export async function importFile(): Promise<void> {
  const result = await importAndOpen();
  if (result !== null) noteSave('ok', `Imported ${result.summary.file}`);
}

export async function deleteFile(): Promise<void> {
  const file = useEditor.getState().source?.file ?? openId();
  const sure = await askConfirm({
    title: `Delete ${file}?`,
    body: 'The file is removed from the workspace. Versions that ran stay in the store, with their runs.',
    confirm: 'Delete',
    cancel: 'Keep it',
    danger: true,
  });
  if (!sure) return;
  await requireClients().files.remove(openId());
  await refreshWorkflows();
  useRoute.getState().go({ page: 'workflows' });
}
