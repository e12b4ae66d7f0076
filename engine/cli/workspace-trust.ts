// Workflows can run scripts and commands from their workspace: code that came with a cloned
// folder. Such a workflow runs only from a workspace the user has trusted (`weft trust DIR`);
// trust is remembered per absolute path in the user's config folder ($WEFT_CONFIG_DIR, else
// $XDG_CONFIG_HOME/weft, else ~/.config/weft), never in the workspace itself.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { StoreError } from '../store/store-error.ts';

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  return env['WEFT_CONFIG_DIR'] ?? join(env['XDG_CONFIG_HOME'] ?? join(homedir(), '.config'), 'weft');
}

const trustFile = (env: NodeJS.ProcessEnv): string => join(configDir(env), 'trusted-workspaces.json');

export function trustedWorkspaces(env: NodeJS.ProcessEnv = process.env): string[] {
  try {
    const parsed: unknown = JSON.parse(readFileSync(trustFile(env), 'utf8'));
    const list = (parsed as { workspaces?: unknown }).workspaces;
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export function setTrust(dir: string, trusted: boolean, env: NodeJS.ProcessEnv = process.env): string[] {
  const path = resolve(dir);
  const list = trustedWorkspaces(env).filter((d) => d !== path);
  if (trusted) list.push(path);
  mkdirSync(configDir(env), { recursive: true });
  const file = trustFile(env);
  writeFileSync(`${file}.tmp`, `${JSON.stringify({ workspaces: list.sort() }, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
  return list;
}

/** Throws a StoreError('refused') that says how to trust the workspace, if the workflow needs it. */
export function requireTrust(workflow: Workflow, workspaceDir: string, env: NodeJS.ProcessEnv = process.env): void {
  const code = workflow.steps.filter((s) => s.kind === 'script' || s.kind === 'command').map((s) => s.id);
  if (code.length === 0) return;
  const dir = resolve(workspaceDir);
  if (trustedWorkspaces(env).includes(dir)) return;
  throw new StoreError(
    'refused',
    `workflow "${workflow.id}" runs scripts or commands (${code.join(', ')}) from ${dir}, a workspace you have not trusted; review what it runs, then trust it with: weft trust ${dir}`,
  );
}
