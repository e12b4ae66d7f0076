// Where a workflow file opened from outside the app (argv, a double-click, macOS open-file) goes.
// A file inside the open workspace opens there, named relative to it. A file outside it switches
// the workspace to the file's own folder, which is what a user double-clicking a file expects:
// that file opens, next to its siblings, as in VS Code's "open file" of a loose file; we do not
// guess a project root above it (a parent folder may hold unrelated workflows, and its trust is a
// separate decision).
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';

export type OpenTarget =
  | { kind: 'in-workspace'; workspace: string; file: string }
  | { kind: 'switch-workspace'; workspace: string; file: string };

/** `file` is absolute; `workspace` is the open workspace's folder, if any. Files are named with `/`. */
export function openTarget(file: string, workspace: string | undefined): OpenTarget {
  const path = resolve(file);
  if (workspace !== undefined) {
    const rel = relative(resolve(workspace), path);
    if (rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel)) {
      return { kind: 'in-workspace', workspace: resolve(workspace), file: rel.split(sep).join('/') };
    }
  }
  return { kind: 'switch-workspace', workspace: dirname(path), file: basename(path) };
}
