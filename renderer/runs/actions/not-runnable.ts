// Why a workflow cannot be started, in words, before anyone fills in a form: a file with errors
// is refused by the engine (POST /api/runs), so "Start a run" says so on the button instead.
import type { WorkflowSummary } from '../../../shared/api/workflow-views.ts';

/**
 * The reason `summary`'s workflow cannot start a run, or null when it can (or is not known yet).
 *
 * @example notRunnableReason({ file: 'a.weft.json', errors: 2, ... }) // 'a.weft.json has 2 errors, …'
 */
export function notRunnableReason(summary: Pick<WorkflowSummary, 'file' | 'errors'> | undefined): string | null {
  if (summary === undefined || summary.errors === 0) return null;
  const errors = summary.errors === 1 ? '1 error' : `${summary.errors.toLocaleString('en')} errors`;
  return `${summary.file} has ${errors}, so the engine would refuse to start it: fix ${summary.errors === 1 ? 'it' : 'them'} in the editor (Problems lists ${summary.errors === 1 ? 'it' : 'them'}) and save.`;
}
