// Opens a workflow file that came from outside the app (see open-target.ts for where it goes):
// tells the app which file to open with DESKTOP_CHANNELS.openWorkflow, after switching the
// workspace to the file's folder when it lies outside the open one.
import { statSync } from 'node:fs';
import { openWorkflowRequestSchema, type OpenWorkflowRequest } from '../../shared/desktop/preload-contract.ts';
import { openTarget } from './open-target.ts';

export interface OpenWorkflowDeps {
  workspace(): string | undefined;
  /** Switches the engine to `folder`; false when the user cancelled (unsaved changes) or it failed. */
  switchWorkspace(folder: string): Promise<boolean>;
  send(request: OpenWorkflowRequest): void;
  reportError(message: string): void;
}

/** Returns the request sent, or undefined when nothing was opened. */
export async function openWorkflowFile(file: string, deps: OpenWorkflowDeps): Promise<OpenWorkflowRequest | undefined> {
  let isFile = false;
  try {
    isFile = statSync(file).isFile();
  } catch {
    // reported below
  }
  if (!isFile) {
    deps.reportError(`${file} was not opened: there is no such file; check the name, or open its folder with File > Open workspace folder`);
    return undefined;
  }
  const target = openTarget(file, deps.workspace());
  if (target.kind === 'switch-workspace' && !(await deps.switchWorkspace(target.workspace))) return undefined;
  const request = openWorkflowRequestSchema.safeParse({ file: target.file });
  if (!request.success) {
    deps.reportError(`${file} was not opened: its name is longer than 1000 characters; move it to a shorter path`);
    return undefined;
  }
  deps.send(request.data);
  return request.data;
}
