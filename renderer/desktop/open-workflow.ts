// Opening a workflow file the desktop shell names (a double-clicked .weft.json, a second launch's
// argument): find it among the workspace's workflows and go to it in the editor.
import { useRoute } from '../core/route-store.ts';
import { useWorkflows } from '../core/workflows-store.ts';
import { workflowForFile } from './workflow-for-file.ts';

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
