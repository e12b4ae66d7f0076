// A bench's own workspace, made before anything is timed: a temporary folder with the workspace
// (trusted), its store and config folder, and the real CLI (`bin/weft.js`) to fill it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, type Workspace } from '../e2e/weft-serve.ts';

export interface BenchWorkspace {
  /** The temporary folder: the workspace, the store and anything else the bench writes (inputs). */
  root: string;
  ws: Workspace;
  /** Runs `weft ARGS` in the workspace and returns its stdout (throws on a non-zero exit, stdout on the error). */
  weft(args: string[]): string;
}

/** A fresh trusted workspace under a temporary folder named `weft-bench-NAME-…`. */
export function benchWorkspace(name: string): BenchWorkspace {
  const root = mkdtempSync(join(tmpdir(), `weft-bench-${name}-`));
  const dir = join(root, 'workspace');
  mkdirSync(dir);
  const env = { ...process.env, WEFT_CONFIG_DIR: join(root, 'config'), WEFT_DB: join(root, 'weft.db'), WEFT_USER: 'bench' };
  const weft = (args: string[]): string => execFileSync(process.execPath, [join(REPO_ROOT, 'bin/weft.js'), ...args], { cwd: dir, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ws: Workspace = { dir, db: join(root, 'weft.db'), env, remove: () => rmSync(root, { recursive: true, force: true }) };
  try {
    weft(['trust', dir]);
  } catch (error) {
    ws.remove();
    throw error;
  }
  return { root, ws, weft };
}
