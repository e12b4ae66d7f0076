// Reaching a workflow file can fail for reasons that say nothing about its contents (missing,
// unreadable, a folder). Those are I/O errors, not diagnostics: the CLI maps them to exit 2.

/** Why a definition file could not be read: a Node errno code such as `ENOENT`, or `not-a-file`. */
export type DefinitionFileErrorCode = string;

/**
 * A definition file could not be read at all. `message` names the path and what to do.
 *
 * @example
 * try { await loadDefinitionFile(path) } catch (e) { if (e instanceof DefinitionFileError) exitCode = 2 }
 */
export class DefinitionFileError extends Error {
  override readonly name = 'DefinitionFileError';

  constructor(
    readonly path: string,
    readonly code: DefinitionFileErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** What to tell the user for each errno code we expect when opening or reading a file. */
const ADVICE: Record<string, string> = {
  ENOENT: 'no such file or directory; check the path and the current directory',
  EACCES: "permission denied; check the file's permissions (ls -l) or run as a user who may read it",
  EPERM: "permission denied; check the file's permissions (ls -l) or run as a user who may read it",
  EISDIR: 'it is a directory, not a workflow file; pass a NAME.weft.json file',
  ENOTDIR: 'a part of the path is a file, not a directory; check the path',
  ELOOP: 'too many levels of symbolic links; check for a symlink that points to itself',
  ENAMETOOLONG: 'the path is too long; check the path',
  EMFILE: 'too many open files; close other programs or raise the limit (ulimit -n)',
  ENFILE: 'too many open files on the system; close other programs and try again',
  EIO: 'the disk reported an I/O error while reading; check the disk or copy the file elsewhere',
  'not-a-file': 'it is a device or socket, not a file; pass a NAME.weft.json file',
  FIFO: 'it is a FIFO (a named pipe), not a regular file; only regular files are read as definitions (save the workflow to a NAME.weft.json file)',
};

/** A DefinitionFileError for a known code; `detail` is used when there is no advice for it. */
export function definitionFileError(path: string, code: DefinitionFileErrorCode, detail?: string): DefinitionFileError {
  const advice = ADVICE[code] ?? detail ?? code;
  return new DefinitionFileError(path, code, `cannot read ${path}: ${advice}`);
}

/** Wraps an error thrown by `node:fs` into a DefinitionFileError with advice for the user. */
export function definitionFileErrorFrom(path: string, error: unknown): DefinitionFileError {
  if (error instanceof DefinitionFileError) return error;
  const code = error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : 'EUNKNOWN';
  return definitionFileError(path, code, error instanceof Error ? error.message : String(error));
}
