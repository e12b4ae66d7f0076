// The definition a replay request names (POST /api/runs/:id/replay, POST /api/replays): a stored
// version (run or saved), a workflow file of the server's workspace, or a definition sent as
// content (the editor's unsaved draft), which must be a valid workflow. Refusals are
// ServiceErrors naming the field; a server never reads a file outside its workspace.
import type { ReplayAgainstRequest, ReplayScript } from '../../shared/api/replay-result.ts';
import { hasErrors } from '../../shared/validator/diagnostic.ts';
import { validateDefinitionText } from '../../shared/validator/validate-workflow.ts';
import type { Script } from '../scenario/scripted-executor.ts';
import { ServiceError } from '../service/service-error.ts';
import type { WorkspaceFiles } from '../service/workspace-files.ts';
import type { Store } from '../store/store.ts';
import type { ReplayAgainst } from './replay-run.ts';

/** The workflow `against` names, with how the result names it. */
export async function replayAgainst(store: Store, files: WorkspaceFiles, against: ReplayAgainstRequest): Promise<ReplayAgainst> {
  if ('version' in against) {
    const found = store.definitions.version(against.workflowId, against.version);
    if (found === undefined) throw new ServiceError('not-found', `workflow "${against.workflowId}" v${against.version} has never run or been saved in this store; GET /api/workflows/${against.workflowId} lists its versions`, 'against.version');
    return { workflow: found.workflow, version: against.version };
  }
  if ('file' in against) {
    const found = (await files.list()).find((f) => f.file === against.file);
    if (found === undefined) throw new ServiceError('not-found', `no workflow file "${against.file.slice(0, 200)}" in the workspace ${files.root}; GET /api/workflows lists its files`, 'against.file');
    if (found.workflow === undefined || hasErrors(found.diagnostics)) throw new ServiceError('bad-input', `${found.file} is not a valid workflow; nothing was replayed`, 'against.file');
    return { workflow: found.workflow, file: found.file };
  }
  const text = typeof against.definition === 'string' ? against.definition : JSON.stringify(against.definition);
  const { workflow, diagnostics } = validateDefinitionText(text);
  if (workflow === undefined || hasErrors(diagnostics)) {
    const first = diagnostics.find((d) => d.severity === 'error');
    throw new ServiceError('bad-input', `the definition is not a valid workflow; nothing was replayed${first ? ` (${first.code}: ${first.message})` : ''}`, 'against.definition');
  }
  return { workflow, file: against.name ?? '(draft)' };
}

/** A request's script as the executor reads it. */
export const scriptFrom = (script: ReplayScript | undefined): Script | undefined => (script === undefined ? undefined : new Map(Object.entries(script)));
