// Writing a workflow file so that a reader (git, an editor, the engine) never sees half of it: the
// text goes to a temporary file beside it, which then takes the file's name in one step.
import { createHash, randomUUID } from 'node:crypto';
import { chmodSync, linkSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** sha256 of a file's bytes, hex: what the editor sends back as `expectedHash`. */
export const fileHash = (bytes: string | Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/**
 * Writes `text` at `path` atomically. `replace: false` refuses (EEXIST) to overwrite a file that
 * appeared meanwhile: the temporary file is linked to the name, which fails if it exists, where
 * rename would silently replace it. A replaced file keeps its permissions.
 */
export function writeFileAtomic(path: string, text: string, options: { replace: boolean }): void {
  const temp = join(dirname(path), `.${basename(path)}.${randomUUID()}.tmp`);
  try {
    writeFileSync(temp, text, { flag: 'wx', flush: true });
    if (options.replace) {
      try {
        chmodSync(temp, statSync(path).mode & 0o7777);
      } catch {
        // No file to replace: the new one keeps the usual mode.
      }
      renameSync(temp, path);
    } else {
      linkSync(temp, path);
    }
  } finally {
    rmSync(temp, { force: true });
  }
}
