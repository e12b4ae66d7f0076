// Errors a user can act on become a message and exit 2; anything else is a bug and is rethrown
// for main to report with its stack. SQLite's errors about the store file (damaged, read-only,
// full) reach here already as StoreErrors naming the store (store-failure.ts, applied where the
// store is opened, read and run: engine-session.ts).
import { DefinitionFileError } from '../definition/definition-file-error.ts';
import { StoreError } from '../store/store-error.ts';
import type { CliIo } from './cli-io.ts';
import { EXIT_USAGE } from './exit-codes.ts';
import { InputError } from './input-error.ts';

export async function withUserErrors(command: string, io: CliIo, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (e) {
    if (isUserError(e)) {
      io.stderr.write(`weft ${command}: ${oneLine(e.message)}\n`);
      return EXIT_USAGE;
    }
    throw e;
  }
}

export function isUserError(e: unknown): e is StoreError | InputError | DefinitionFileError {
  return e instanceof StoreError || e instanceof InputError || e instanceof DefinitionFileError;
}

/** A message is one line: a newline in a name or a reason given on the command line stays visible. */
export function oneLine(message: string): string {
  return message.replace(/\r?\n/g, '\\n');
}
