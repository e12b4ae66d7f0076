// Who acts and why when a command names neither: one default for every front end (the CLI, the
// server, scenarios through the service), so an action records the same person and the same
// reason whether it was typed in a terminal or clicked in the app. The person is $WEFT_USER, else
// $USER, else the user the process runs as; a blank variable names no one and is passed over.
import { userInfo } from 'node:os';

/** The reason an operator action records when none is given. */
export const DEFAULT_REASON = 'no reason given';

const named = (v: string | undefined): string | undefined => (v === undefined || v.trim() === '' ? undefined : v);

/** The operating system's name for the user this process runs as; its uid when it has none. */
function osUser(): string {
  try {
    const name = named(userInfo().username);
    if (name !== undefined) return name;
  } catch {
    // No entry for this uid in the user database (a container started with an arbitrary uid).
  }
  const uid = process.getuid?.();
  return uid === undefined ? 'unknown user' : `uid ${uid}`;
}

/**
 * Who acts when a command names nobody: $WEFT_USER, else $USER, else the OS user.
 *
 * @example
 * defaultActor({ WEFT_USER: 'ana' }); // 'ana'
 * defaultActor({ USER: '' }); // the OS user, e.g. 'ana'
 */
export function defaultActor(env: NodeJS.ProcessEnv = process.env): string {
  return named(env['WEFT_USER']) ?? named(env['USER']) ?? osUser();
}
