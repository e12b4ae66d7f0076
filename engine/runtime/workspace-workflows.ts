// Subworkflow and map steps name a workflow by id and version. A version that has run is in the
// store; otherwise it is looked up among the *.weft.json files of the calling run's workspace
// (its folder), validated, and stored as a snapshot like any version that runs.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { validateDefinitionText } from '../../shared/validator/validate-workflow.ts';

/**
 * Throws when `workflow`, a child run's definition, may not run code from `workspaceDir`
 * (an untrusted workspace). Given by whoever opens the engine (engine/service/workspace-trust.ts);
 * `startedBy` names the parent run and step, for the message.
 */
export type TrustCheck = (workflow: Workflow, workspaceDir: string, startedBy: string) => void;

export function findWorkspaceWorkflow(dir: string, id: string, version: number): Workflow {
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.weft.json')).sort();
  } catch {
    // an unreadable workspace has no workflows to offer
  }
  for (const f of files) {
    let text: string;
    try {
      text = readFileSync(join(dir, f), 'utf8');
    } catch {
      continue;
    }
    const { workflow, diagnostics } = validateDefinitionText(text);
    if (workflow?.id !== id || workflow.version !== version) continue;
    const errors = diagnostics.filter((d) => d.severity === 'error');
    if (errors.length > 0) throw new Error(`workflow "${id}" v${version} (${f}) is invalid: ${errors.map((d) => `${d.code}: ${d.message}`).join('; ')}`);
    return workflow;
  }
  throw new Error(`workflow "${id}" version ${version} has never run here and is not among the *.weft.json files of ${dir}; add it there or run it once`);
}
