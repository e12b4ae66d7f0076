// The exit codes of the CLI contract (docs: DESIGN "Contracts other tools rely on").
export const EXIT_OK = 0;
/** A run failed, or a definition is invalid. Also used for internal errors (bugs in weft). */
export const EXIT_FAILED = 1;
/** Bad usage, or a file that could not be read or written. */
export const EXIT_USAGE = 2;
/** A run was left waiting or needing attention. */
export const EXIT_WAITING = 3;
