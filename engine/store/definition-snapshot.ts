// A definition snapshot as read back from the store (`definitions`, `saved_versions`): checked
// like a file, since a run folded over something that is not a workflow would crash later.
import { Workflow } from '../../shared/definition/workflow-schema.ts';
import { StoreError } from './store-error.ts';

/**
 * The workflow a stored snapshot holds, as the schema parses it; a StoreError ('damaged') naming
 * the version when it is not JSON or not a workflow.
 *
 * @example snapshotWorkflow(row.content, 'order-payment', 3).steps.length
 */
export function snapshotWorkflow(content: string, workflowId: string, version: number): Workflow {
  const what = `the definition snapshot of workflow ${JSON.stringify(workflowId)} version ${version}`;
  let raw: unknown;
  try {
    raw = JSON.parse(content);
  } catch {
    throw new StoreError('damaged', `${what} is not JSON; the store is damaged`);
  }
  const checked = Workflow.safeParse(raw);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new StoreError('damaged', `${what} is not a workflow (${issue === undefined ? 'invalid' : `$${issue.path.map((p) => `.${String(p)}`).join('')}: ${issue.message}`}); the store is damaged`);
  }
  // The schema's output, not the raw JSON cast: what the fold sees is what the schema vouches for.
  return checked.data;
}
