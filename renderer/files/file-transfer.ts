// Export and import of `.weft.json` files. Export downloads the file's exact bytes (as the
// server holds them); import sends a file's text, asking before it replaces a workflow with the
// same id. Both give the caller one line to show when they fail.
import { ApiError } from '../api/api-client.ts';
import type { WorkflowFileResult } from '../../shared/api/workflow-files.ts';
import { requireFiles } from '../app/session-store.ts';

export async function exportWorkflow(id: string): Promise<void> {
  const file = await requireFiles().exportFile(id);
  const url = URL.createObjectURL(new Blob([file.text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy by now; the object URL can go after this task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Imports a chosen file; null when the user declined to replace an existing workflow. */
export async function importWorkflowFile(file: File, confirmReplace: (message: string) => boolean): Promise<WorkflowFileResult | null> {
  const text = await file.text();
  const files = requireFiles();
  try {
    return await files.import(text);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'refused') throw error;
    if (!confirmReplace(`${error.message}\n\nReplace it with ${file.name}?`)) return null;
    return files.import(text, true);
  }
}

/** Opens the system's file chooser for `.weft.json` files. */
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
