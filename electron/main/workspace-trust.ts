// Workspace trust, as `weft trust` keeps it: a workflow's scripts and commands run only from a
// trusted workspace. Main never reads or writes the trust list itself; it asks the same CLI a
// user would (`weft trust --list --json`, `weft trust DIR --json`), so there is one writer of
// that file and one definition of where it lives. Opening an untrusted workspace asks once per
// app session: Trust, or Open without trusting (the app opens; runs with scripts or commands are
// refused by the engine with its usual message until the user trusts the workspace).
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import type { MessageBoxOptions } from './electron-seam.ts';

export interface WeftCommand {
  command: string;
  /** Arguments before the weft command itself, e.g. [<app root>/bin/weft.js]. */
  args: string[];
  env: Record<string, string | undefined>;
}

export class TrustError extends Error {}

function runWeft(weft: WeftCommand, args: string[]): Promise<string> {
  return new Promise((done, fail) => {
    execFile(weft.command, [...weft.args, ...args], { env: weft.env, encoding: 'utf8', timeout: 20_000 }, (error, stdout, stderr) => {
      if (error !== null) {
        const line = stderr.trim().split('\n')[0] ?? '';
        fail(new TrustError(`weft ${args.join(' ')} failed: ${line !== '' ? line : error.message}`));
        return;
      }
      done(stdout);
    });
  });
}

export async function trustedWorkspaces(weft: WeftCommand): Promise<string[]> {
  const out = await runWeft(weft, ['trust', '--list', '--json']);
  let parsed: unknown;
  try {
    parsed = JSON.parse(out);
  } catch {
    throw new TrustError(`weft trust --list --json printed no JSON: ${out.slice(0, 200)}`);
  }
  const list = parsed !== null && typeof parsed === 'object' && 'workspaces' in parsed ? parsed.workspaces : undefined;
  if (!Array.isArray(list)) throw new TrustError('weft trust --list --json printed no workspaces list');
  return list.filter((x): x is string => typeof x === 'string');
}

export async function isTrusted(weft: WeftCommand, workspace: string): Promise<boolean> {
  return (await trustedWorkspaces(weft)).includes(resolve(workspace));
}

export async function trustWorkspace(weft: WeftCommand, workspace: string): Promise<void> {
  await runWeft(weft, ['trust', resolve(workspace), '--json']);
}

export const TRUST = 0;
export const OPEN_UNTRUSTED = 1;

/** The native prompt for an untrusted workspace. */
export function trustPrompt(workspace: string): MessageBoxOptions {
  return {
    type: 'question',
    buttons: ['Trust', 'Open without trusting'],
    defaultId: OPEN_UNTRUSTED,
    cancelId: OPEN_UNTRUSTED,
    message: `Do you trust the workflows in ${workspace}?`,
    detail:
      'Workflows can run scripts and commands from their folder on this computer. Trust the folder only if you know where its files came from. ' +
      'Without trust you can open, edit and run workflows that have no script or command steps.',
  };
}

export type TrustStep = { kind: 'nothing' } | { kind: 'ask' } | { kind: 'trust' };

/** Before the prompt: ask only for an untrusted workspace the user has not answered this session. */
export function beforeOpening(trusted: boolean, answeredThisSession: boolean): TrustStep {
  return trusted || answeredThisSession ? { kind: 'nothing' } : { kind: 'ask' };
}

/** After the prompt: Trust records trust; anything else (the other button, Escape) opens untrusted. */
export function afterPrompt(response: number): TrustStep {
  return response === TRUST ? { kind: 'trust' } : { kind: 'nothing' };
}
