// What the editor's file commands do in the page: rename, export, import and delete the
// workflow file that is open (the File menu and the desktop File menu reach them as commands).
import { WORKFLOW_ID_PATTERN } from '../../shared/definition/names.ts';
import { requireClients } from '../api/clients.ts';
import { useRoute } from '../core/route-store.ts';
import { refreshWorkflows } from '../core/workflow-queries.ts';
import { exportWorkflow, importAndOpen } from '../files/file-transfer.ts';
import { isDirty, useEditor } from './editor-store.ts';
import { noteSave, saveDocument } from './save-document.ts';

const openId = (): string => useEditor.getState().source?.workflowId ?? '';

export async function renameFile(): Promise<void> {
  const to = window.prompt('New id of this workflow (also its file name):', useEditor.getState().doc?.id ?? '');
  if (to === null || to === openId()) return;
  if (!WORKFLOW_ID_PATTERN.test(to)) throw new Error(`"${to}" is not a workflow id: use lower-case letters, digits and -, starting with a letter or digit`);
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
  if (!window.confirm(`Delete ${useEditor.getState().source?.file ?? openId()}? The file is removed; versions that ran stay in the store.`)) return;
  await requireClients().files.remove(openId());
  await refreshWorkflows();
  useRoute.getState().go({ page: 'workflows' });
}
