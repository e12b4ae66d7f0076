// Writing a file so that a reader (git, an editor, the engine, the app at its next start) never
// sees half of it, and a crash mid-write leaves the previous file whole: the bytes go to a
// temporary file beside it, flushed to disk, which then takes the file's name in one step. The
// engine (workflow files, the trust list) and the desktop shell (settings, provider keys, window
// state, exported workflows) both write through this one function.
import { randomUUID } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /**
   * false refuses (EEXIST) to overwrite a file that appeared meanwhile: the temporary file is
   * linked to the name, which fails if it exists, where rename would silently replace it.
   * Default true.
   */
  replace?: boolean;
  /**
   * The file's mode (before the umask), e.g. 0o600 for a file that holds secrets. Without it a
   * replaced file keeps its permissions and a new one gets the usual mode.
   */
  mode?: number;
  /**
   * Creates the missing folders above the file first. Only for a folder the program owns (app
   * data, config): a user-chosen path names a folder that exists, and Node's recursive mkdir can
   * spin forever on some unwritable parents (e.g. under /proc). Default false.
   */
  createFolder?: boolean;
}

/**
 * Writes `content` at `path` atomically; throws the file system's error (ENOENT, EACCES,
 * ENOTDIR, EEXIST with `replace: false`) and leaves no temporary file behind.
 *
 * @example
 * writeFileAtomic(settingsPath, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600, createFolder: true });
 */
export function writeFileAtomic(path: string, content: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const { replace = true, mode, createFolder = false } = options;
  if (createFolder) mkdirSync(dirname(path), { recursive: true });
  const temp = join(dirname(path), `.${basename(path)}.${randomUUID()}.tmp`);
  try {
    writeFileSync(temp, content, { flag: 'wx', flush: true, ...(mode === undefined ? {} : { mode }) });
    if (replace) {
      if (mode === undefined) keepMode(temp, path);
      renameSync(temp, path);
    } else {
      linkSync(temp, path);
    }
  } finally {
    rmSync(temp, { force: true });
  }
}

/** Gives the temporary file the mode of the file it replaces, if there is one. */
function keepMode(temp: string, path: string): void {
  try {
    chmodSync(temp, statSync(path).mode & 0o7777);
  } catch {
    // No file to replace: the new one keeps the usual mode.
  }
}
