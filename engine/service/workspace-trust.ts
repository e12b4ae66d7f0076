// Workflows can run scripts and commands from their workspace: code that came with a cloned
// folder. Such a workflow runs only from a workspace the user has trusted (`weft trust DIR`);
// trust is remembered per absolute path in the user's config folder ($WEFT_CONFIG_DIR, else
// $XDG_CONFIG_HOME/weft, else ~/.config/weft), never in the workspace itself. The same check
// guards a run's start and every child workflow a map or subworkflow step runs in that
// workspace (the engine calls `trustCheck` for each), so a workflow without code of its own
// cannot smuggle a child's command past it.
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { writeFileAtomic } from '../../shared-node/atomic-file.ts';
import { KIND_SPECS } from '../../shared/definition/step-kinds.ts';
import { readName } from '../../shared/run/revalidation-fetched.ts';
import type { TrustCheck } from '../runtime/workspace-workflows.ts';
import { ServiceError } from './service-error.ts';

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  return env['WEFT_CONFIG_DIR'] ?? join(env['XDG_CONFIG_HOME'] ?? join(homedir(), '.config'), 'weft');
}

const trustFile = (env: NodeJS.ProcessEnv): string => join(configDir(env), 'trusted-workspaces.json');

/**
 * The trusted folders; none when nothing was recorded yet. A config folder we cannot use, or a
 * list that does not read, is an error (ServiceError naming the file).
 */
export function trustedWorkspaces(env: NodeJS.ProcessEnv = process.env): string[] {
  let text: string;
  try {
    text = readFileSync(trustFile(env), 'utf8');
  } catch (e) {
    if (errnoOf(e) === 'ENOENT') return [];
    throw configError(env, e);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw unreadableList(env, `is not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const list = parsed !== null && typeof parsed === 'object' && 'workspaces' in parsed ? parsed.workspaces : undefined;
  if (!Array.isArray(list) || !list.every((x): x is string => typeof x === 'string')) {
    throw unreadableList(env, 'does not hold a list of folders ({"workspaces": ["/path/of/a/folder", ...]})');
  }
  return list;
}

/**
 * A trust list that does not read is the user's, not garbage: it is refused, never read as
 * empty (which `weft trust DIR` would then write over, forgetting every folder on it).
 */
function unreadableList(env: NodeJS.ProcessEnv, what: string): ServiceError {
  return new ServiceError('refused', `the trust list ${trustFile(env)} ${what}; nothing was changed; fix the file, or move it away to start a new list (weft trust DIR then makes one)`);
}

/**
 * Trusts (or stops trusting) a folder. Only an existing folder can be trusted; revoking works for
 * one that is gone, so a deleted workspace can be taken off the list.
 */
export function setTrust(dir: string, trusted: boolean, env: NodeJS.ProcessEnv = process.env): string[] {
  const path = resolve(dir);
  if (trusted) checkFolder(path);
  const list = trustedWorkspaces(env).filter((d) => d !== path);
  if (trusted) list.push(path);
  const file = trustFile(env);
  try {
    writeFileAtomic(file, `${JSON.stringify({ workspaces: list.sort() }, null, 2)}\n`, { createFolder: true });
  } catch (e) {
    throw configError(env, e);
  }
  return list;
}

function checkFolder(path: string): void {
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    throw new ServiceError('bad-input', `${path} does not exist; give the folder of a workspace (the folder of its workflow files); nothing was recorded`, 'workspace');
  }
  if (!isDir) throw new ServiceError('bad-input', `${path} is a file, not a folder; give the folder of a workspace (the folder of its workflow files); nothing was recorded`, 'workspace');
}

const errnoOf = (e: unknown): string | undefined => (e !== null && typeof e === 'object' && 'code' in e && typeof e.code === 'string' ? e.code : undefined);

/** Why the config folder cannot be used, and what to do about it. */
function configError(env: NodeJS.ProcessEnv, e: unknown): ServiceError {
  const dir = configDir(env);
  const code = errnoOf(e);
  let isFile = false;
  try {
    isFile = statSync(dir).isFile();
  } catch {
    // missing or unreachable: the errno below says which
  }
  if (isFile || code === 'ENOTDIR' || code === 'EEXIST') {
    return new ServiceError('internal', `the config folder ${dir} is a file, not a folder; set WEFT_CONFIG_DIR to a folder (or move the file away)`);
  }
  return new ServiceError('internal', `cannot use the config folder ${dir}: ${code ?? (e instanceof Error ? e.message : String(e))}; check its permissions, or set WEFT_CONFIG_DIR to another folder`);
}

/** The steps of a workflow that run code from its workspace (`folder: 'code'` in shared/definition/step-kinds.ts). */
/** The steps that run code: a script or command step, or the script or command read of a revalidate check (`STEP.revalidate`). */
const codeSteps = (workflow: Workflow): string[] =>
  workflow.steps.flatMap((s) => [
    ...(KIND_SPECS[s.kind].folder === 'code' ? [s.id] : []),
    ...(s.revalidate?.fetch !== undefined && KIND_SPECS[s.revalidate.fetch.kind].folder === 'code' ? [readName(s.id)] : []),
  ]);

/**
 * Refuses (ServiceError 'refused', saying how to trust the workspace) a workflow that runs code
 * from a workspace the user has not trusted; `child` names the run that asked for it.
 */
export function requireTrust(workflow: Workflow, workspaceDir: string, env: NodeJS.ProcessEnv = process.env, child?: string): void {
  const code = codeSteps(workflow);
  if (code.length === 0) return;
  const dir = resolve(workspaceDir);
  if (trustedWorkspaces(env).includes(dir)) return;
  const what = child === undefined ? `workflow "${workflow.id}"` : `child workflow "${workflow.id}" v${workflow.version} (started by ${child})`;
  throw new ServiceError('refused', `${what} runs scripts or commands (${code.join(', ')}) from ${dir}, a workspace you have not trusted; review what it runs, then trust it with: weft trust ${dir}`);
}

/** The engine's check for child workflows (EngineOptions.workspaceTrust), against the same trust list. */
export function trustCheck(env: NodeJS.ProcessEnv = process.env): TrustCheck {
  return (workflow, workspaceDir, startedBy) => requireTrust(workflow, workspaceDir, env, startedBy);
}
