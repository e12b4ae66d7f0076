// Which workflow of the workspace a file the desktop shell names is (DOM-free).
import type { WorkflowSummary } from '../../shared/api/workflow-views.ts';

const normal = (file: string): string => file.replaceAll('\\', '/').replace(/^\.\//, '');

/** The workflow id to open for `file`, or the line that says why it cannot be opened. */
export function workflowForFile(list: readonly WorkflowSummary[], file: string): { id: string } | { problem: string } {
  const found = list.find((w) => normal(w.file) === normal(file));
  if (found === undefined) return { problem: `${file} is not among this workspace’s workflows: open the folder that holds it as the workspace.` };
  if (found.id === null) return { problem: `${file} is not a readable workflow: its problems are listed under Workflows; fix them in the file.` };
  return { id: found.id };
}
