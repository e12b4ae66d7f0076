// Opening a workflow file the desktop shell names (a double-clicked .weft.json, a second launch's
// argument): find it among the workspace's workflows and go to it in the editor.
import type { WorkflowSummary } from '../../shared/api/workflow-views.ts';
import { useRoute } from '../app/route-store.ts';
import { useWorkflows } from '../workflows/workflows-store.ts';

const normal = (file: string): string => file.replaceAll('\\', '/').replace(/^\.\//, '');

/** The workflow id to open for `file`, or the line that says why it cannot be opened. */
export function workflowForFile(list: readonly WorkflowSummary[], file: string): { id: string } | { problem: string } {
  const found = list.find((w) => normal(w.file) === normal(file));
  if (found === undefined) return { problem: `${file} is not among this workspace’s workflows: open the folder that holds it as the workspace.` };
  if (found.id === null) return { problem: `${file} is not a readable workflow: its problems are listed under Workflows; fix them in the file.` };
  return { id: found.id };
}

/** Reads the list afresh (the file may be new) and opens the file; the line to show when it cannot. */
export async function openWorkflowFile(file: string): Promise<string | null> {
  await useWorkflows.getState().refresh();
  const { data, error } = useWorkflows.getState().list;
  if (data === null) return `Could not open ${file}: the workflows could not be listed (${error ?? 'no answer'}).`;
  const target = workflowForFile(data, file);
  if ('problem' in target) return target.problem;
  useRoute.getState().go({ page: 'workflow', id: target.id });
  return null;
}
