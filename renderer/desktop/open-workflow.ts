// Opening a workflow file the desktop shell names (a double-clicked .weft.json, a second launch's
// argument): find it among the workspace's workflows and go to it in the editor.
import { useRoute } from '../core/route-store.ts';
import { freshWorkflowList } from '../core/workflow-queries.ts';
import { messageOf } from '../core/query-client.ts';
import { workflowForFile } from './workflow-for-file.ts';

/** Reads the list afresh (the file may be new) and opens the file; the line to show when it cannot. */
export async function openWorkflowFile(file: string): Promise<string | null> {
  let data;
  try {
    data = await freshWorkflowList();
  } catch (error) {
    return `Could not open ${file}: the workflows could not be listed (${messageOf(error)}).`;
  }
  const target = workflowForFile(data, file);
  if ('problem' in target) return target.problem;
  useRoute.getState().go({ page: 'workflow', id: target.id });
  return null;
}
