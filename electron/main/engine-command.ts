// How the desktop app starts `weft`: Electron's own executable in Node mode
// (ELECTRON_RUN_AS_NODE=1) running the app's bin/weft.js, so a packaged app needs no separate
// Node install and the engine runs on the Node that better-sqlite3 was rebuilt for.
import { join } from 'node:path';
import type { WeftCommand } from './workspace-trust.ts';

/** The weft CLI inside this app; `env` is the environment the child gets (provider keys included where given). */
export function weftCommand(execPath: string, appRoot: string, env: Record<string, string | undefined>): WeftCommand {
  return { command: execPath, args: [join(appRoot, 'bin', 'weft.js')], env: { ...env, ELECTRON_RUN_AS_NODE: '1' } };
}

/** The command line of the engine process serving `workspace`. */
export function engineServeArgs(appRoot: string, workspace: string): string[] {
  return [join(appRoot, 'bin', 'weft.js'), 'serve', '--workspace', workspace];
}

/** The engine's environment: ours (strings only), the decrypted provider keys, and Node mode. */
export function engineEnv(base: Record<string, string | undefined>, providerKeys: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) if (value !== undefined) out[name] = value;
  return { ...out, ...providerKeys, ELECTRON_RUN_AS_NODE: '1' };
}
