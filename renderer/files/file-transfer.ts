// Export and import of `.weft.json` files. Export downloads the file's exact bytes (as the
// server holds them); import checks a file's text first (a file that is not a workflow is shown
// with every problem, in the app's dialog, and not sent), then sends it, asking in the app's own
// dialog before it replaces a workflow with the same id. Other failures give the caller one line. In the desktop app both use the
// native open and save dialogs instead of the browser's file input and download.
import { ApiError } from '../api/api-client.ts';
import type { WorkflowFileResult } from '../../shared/api/workflow-files.ts';
import { requireClients } from '../api/clients.ts';
import { useRoute } from '../core/route-store.ts';
import { freshWorkflowList, refreshWorkflows } from '../core/workflow-queries.ts';
import { findDesktopApi } from '../core/desktop-bridge.ts';
import { askConfirm } from '../core/confirm-store.ts';
import { importFindings } from './import-check.ts';
import { showImportProblems } from './import-problems.ts';

/** A chosen file's name and text. */
export interface ChosenFile {
  name: string;
  text: string;
}

/** Exports the workflow's file; false when the user cancelled the desktop save dialog. */
export async function exportWorkflow(id: string): Promise<boolean> {
  const file = await requireClients().files.exportFile(id);
  const desktop = findDesktopApi(window);
  if (desktop !== null) return (await desktop.saveFile({ suggestedName: file.fileName, content: file.text })).saved;
  const url = URL.createObjectURL(new Blob([file.text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy by now; the object URL can go after this task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
  return true;
}

/**
 * Imports a chosen file; null when it was not (it is not a workflow: its problems are shown; or
 * the user chose not to replace the workflow with its id).
 */
export async function importWorkflowFile(file: File | ChosenFile): Promise<WorkflowFileResult | null> {
  const text = file instanceof File ? await file.text() : file.text;
  const findings = importFindings(text);
  if (findings !== null) {
    showImportProblems({ fileName: file.name, text, findings });
    return null;
  }
  const files = requireClients().files;
  try {
    return await files.import(text);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'refused') throw error;
    if (!(await askReplace(text, file.name))) return null;
    return files.import(text, true);
  }
}

/** "A workflow named X already exists. Replace it?", in the app's dialog. */
async function askReplace(text: string, fileName: string): Promise<boolean> {
  const id = idOf(text);
  const existing = (await freshWorkflowList().catch(() => [])).find((w) => w.id === id || w.file === `${id}.weft.json`);
  const name = existing?.name ?? id;
  return askConfirm({
    title: 'Replace the workflow?',
    body: `A workflow named "${name}" already exists${existing === undefined ? '' : ` (${existing.file})`}. Replace it with ${fileName}?\nIts file is overwritten; the versions that ran stay in the store.`,
    confirm: 'Replace',
    cancel: 'Cancel',
    danger: true,
  });
}

/** The id a file's text declares (it has passed the shape check). */
function idOf(text: string): string {
  const value: unknown = JSON.parse(text);
  return typeof value === 'object' && value !== null && 'id' in value && typeof value.id === 'string' ? value.id : '';
}

/** Asks for a `.weft.json` file to import: the native dialog on desktop, the browser's chooser otherwise. */
export async function chooseWorkflowFile(): Promise<File | ChosenFile | null> {
  const desktop = findDesktopApi(window);
  if (desktop === null) return chooseFile();
  const chosen = await desktop.openFile({ purpose: 'import-workflow' });
  return chosen === null ? null : { name: chosen.name, text: chosen.content };
}

/** Opens the browser's file chooser for `.weft.json` files. */
export function chooseFile(): Promise<File | null> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = '.json,application/json';
    input.setAttribute('data-testid', 'import-file-input');
    input.style.display = 'none';
    input.addEventListener('change', () => {
      resolve(input.files?.[0] ?? null);
      input.remove();
    });
    input.addEventListener('cancel', () => {
      resolve(null);
      input.remove();
    });
    document.body.append(input);
    input.click();
  });
}

/** Asks for a file, imports it and opens it in the editor; null when the user cancelled or declined, or it was not a workflow. */
export async function importAndOpen(): Promise<WorkflowFileResult | null> {
  const file = await chooseWorkflowFile();
  if (file === null) return null;
  const result = await importWorkflowFile(file);
  if (result === null) return null;
  await refreshWorkflows();
  useRoute.getState().go({ page: 'workflow', id: result.definition.id });
  return result;
}
