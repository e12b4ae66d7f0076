// A workflow sent as content (a terminal's `weft run FILE`, handed to the `weft serve` that owns
// the store) and the folder it runs from. A run's folder is where its command steps run, its
// script modules are found, and its child workflows are looked up; a server never takes one from
// a request. So the server looks in its own workspace: a file there with the same content is the
// workflow, and runs from its folder (which the server found itself). A definition that is no
// file of the workspace runs only when nothing in it reads a folder; the run then records the
// workspace's root, which none of its steps uses.
import { dirname, join } from 'node:path';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { StepKind } from '../../shared/definition/names.ts';
import { kindsWhere } from '../../shared/definition/step-kinds.ts';
import { hasErrors } from '../../shared/validator/diagnostic.ts';
import { validateDefinitionText } from '../../shared/validator/validate-workflow.ts';
import { canonicalJson } from '../store/canonical-json.ts';
import { ServiceError } from './service-error.ts';
import type { WorkspaceFiles } from './workspace-files.ts';

/** Step kinds that read the run's folder (shared/definition/step-kinds.ts): commands and scripts run there, children are found there. */
const FOLDER_KINDS: ReadonlySet<StepKind> = new Set(kindsWhere((k) => k.folder !== 'none'));

/**
 * The valid workflow of `text` and the folder to run it from.
 *
 * @example
 * const { workflow, folder } = await definitionToRun(service.files, fileText);
 */
export async function definitionToRun(files: WorkspaceFiles, text: string): Promise<{ workflow: Workflow; folder: string }> {
  const { workflow, diagnostics } = validateDefinitionText(text);
  if (workflow === undefined || hasErrors(diagnostics)) {
    const first = diagnostics.find((d) => d.severity === 'error');
    throw new ServiceError('bad-input', `the definition is not a valid workflow; nothing was run${first ? ` (${first.code}: ${first.message})` : ''}`, 'definition');
  }
  const content = canonicalJson(workflow);
  for (const file of await files.list()) {
    if (file.workflow?.id === workflow.id && canonicalJson(file.workflow) === content) return { workflow, folder: dirname(join(files.root, file.file)) };
  }
  const reading = workflow.steps.filter((s) => FOLDER_KINDS.has(s.kind)).map((s) => s.id);
  if (reading.length > 0) {
    throw new ServiceError(
      'refused',
      `workflow "${workflow.id}" runs commands, scripts or child workflows from its own folder (${reading.join(', ')}), and it is not a workflow file of the workspace ${files.root} that this weft serve runs: a server runs such a workflow only from a file of its workspace; move the file into ${files.root}, or stop weft serve, or run it on another store (--db PATH); nothing was run`,
      'definition',
    );
  }
  return { workflow, folder: files.root };
}
