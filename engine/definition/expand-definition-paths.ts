// Commands take files or folders: a folder stands for the workflow files directly inside it.
// Subfolders are not searched, so `weft validate .` never wanders into node_modules.
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DefinitionFileError, definitionFileErrorFrom } from './definition-file-error.ts';

export const DEFINITION_SUFFIX = '.weft.json';

/** One file to load: `file` as the user should see it, `path` absolute; or why a folder gave none. */
export type DefinitionTarget = { file: string; path: string } | { file: string; error: DefinitionFileError };

/**
 * Turns command-line paths into definition files, in argument order; a folder becomes its
 * `*.weft.json` files sorted by name. Paths that do not exist are kept: loading them reports why.
 *
 * @example
 * await expandDefinitionPaths(['examples', 'extra/flow.weft.json'], process.cwd())
 */
export async function expandDefinitionPaths(args: readonly string[], cwd: string): Promise<DefinitionTarget[]> {
  const targets: DefinitionTarget[] = [];
  for (const arg of args) {
    const path = resolve(cwd, arg);
    const isDirectory = await stat(path).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (!isDirectory) targets.push({ file: arg, path });
    else targets.push(...(await definitionsIn(arg, path)));
  }
  return targets;
}

async function definitionsIn(arg: string, dir: string): Promise<DefinitionTarget[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith(DEFINITION_SUFFIX) && n.length > DEFINITION_SUFFIX.length);
  } catch (error) {
    return [{ file: arg, error: definitionFileErrorFrom(dir, error) }];
  }
  const files: string[] = [];
  for (const name of names.sort()) {
    // stat, not the dirent type, so a symlink to a workflow file counts and a folder named x.weft.json does not.
    if (await stat(join(dir, name)).then((s) => s.isFile(), () => false)) files.push(name);
  }
  if (files.length === 0) {
    const message = `${dir}: no *${DEFINITION_SUFFIX} files in this folder (subfolders are not searched); pass a workflow file or the folder that holds them`;
    return [{ file: arg, error: new DefinitionFileError(dir, 'no-definitions', message) }];
  }
  return files.map((name) => ({ file: join(arg, name), path: join(dir, name) }));
}
