// Which command-line arguments name workflow files to open. A launch is `weft-studio [flags] FILE...`
// (what a file manager's "open with" and the file association run); a second launch hands its
// argv and its own working folder to the first instance, so relative names resolve against the
// second instance's cwd, not the first's. Flags (Electron's and Chromium's own, which the
// second-instance argv carries too) are skipped; after `--` everything is a name.
import { isAbsolute, resolve } from 'node:path';

export const WORKFLOW_FILE = /\.weft\.json$/i;

/** The absolute paths of the workflow files named in `argv` (argv[0] is the executable), in order, without repeats. */
export function workflowFilesInArgv(argv: readonly string[], cwd: string): string[] {
  const out: string[] = [];
  let flagsDone = false;
  for (const arg of argv.slice(1)) {
    if (!flagsDone && arg === '--') {
      flagsDone = true;
      continue;
    }
    if (!flagsDone && arg.startsWith('-')) continue;
    const name = arg.startsWith('file://') ? fileUrlPath(arg) : arg;
    if (name === undefined || !WORKFLOW_FILE.test(name)) continue;
    const path = isAbsolute(name) ? resolve(name) : resolve(cwd, name);
    if (!out.includes(path)) out.push(path);
  }
  return out;
}

/**
 * The folder a launch names with `--workspace DIR` (or `--workspace=DIR`), absolute against `cwd`,
 * or undefined. `npm start` passes it (the examples, in a fresh clone); it wins over the last
 * workspace of the settings.
 *
 * @example
 * workspaceInArgv(['electron', '.', '--workspace', 'examples'], '/repo'); // '/repo/examples'
 */
export function workspaceInArgv(argv: readonly string[], cwd: string): string | undefined {
  let found: string | undefined;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') break;
    if (arg === '--workspace' && i + 1 < argv.length) found = argv[++i];
    else if (arg.startsWith('--workspace=')) found = arg.slice('--workspace='.length);
  }
  return found === undefined || found === '' ? undefined : resolve(cwd, found);
}

function fileUrlPath(arg: string): string | undefined {
  try {
    return decodeURIComponent(new URL(arg).pathname);
  } catch {
    return undefined;
  }
}
