// Unsaved work survives a closed tab or a crash: while the document differs from the saved file,
// it is written (debounced) to localStorage under the workspace and workflow, and offered back
// when the workflow is opened again. A save or a discard removes it.
import { z } from 'zod';

const Draft = z.object({
  /** The file's hash when the draft was made: a draft over another file text says so. */
  baseHash: z.string().nullable(),
  savedAtMs: z.number(),
  definition: z.unknown(),
});
export type Draft = z.infer<typeof Draft>;

const key = (workspace: string, workflowId: string): string => `weft.draft:${workspace}:${workflowId}`;

export function readDraft(workspace: string, workflowId: string): Draft | null {
  try {
    const text = localStorage.getItem(key(workspace, workflowId));
    if (text === null) return null;
    const parsed = Draft.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function writeDraft(workspace: string, workflowId: string, draft: Draft): void {
  try {
    localStorage.setItem(key(workspace, workflowId), JSON.stringify(draft));
  } catch {
    // A full storage loses the draft, not the work in the open tab.
  }
}

export function dropDraft(workspace: string, workflowId: string): void {
  try {
    localStorage.removeItem(key(workspace, workflowId));
  } catch {
    // Nothing to do: the draft stays, and is offered again.
  }
}
