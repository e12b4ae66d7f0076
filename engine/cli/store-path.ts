// Which store a command uses: --db PATH, else $WEFT_DB (when not empty), else .weft/weft.db in the
// workspace (the current folder, or `weft serve --workspace DIR`). Relative paths are relative to
// the current folder. The one function that decides it: a command uses it for the store it opens
// itself and for the store whose `weft serve` it hands its command to, so both are the same.
import { resolve } from 'node:path';

/**
 * The absolute path of the store a command uses.
 *
 * @example
 * storePath(undefined, '/home/ana/flows') // '/home/ana/flows/.weft/weft.db' when $WEFT_DB is unset
 */
export function storePath(db: string | undefined, cwd: string, env: NodeJS.ProcessEnv = process.env, workspace: string = cwd): string {
  const chosen = db ?? env['WEFT_DB'];
  return chosen === undefined || chosen === '' ? resolve(workspace, '.weft/weft.db') : resolve(cwd, chosen);
}
