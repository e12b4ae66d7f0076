// Which store a command uses: --db PATH, else $WEFT_DB, else .weft/weft.db in the current folder
// (the workspace). Relative paths are relative to the current folder.
import { resolve } from 'node:path';

export function storePath(db: string | undefined, cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = db ?? env['WEFT_DB'];
  return resolve(cwd, chosen === undefined || chosen === '' ? '.weft/weft.db' : chosen);
}
