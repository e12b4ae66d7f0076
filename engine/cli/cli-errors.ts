// Errors a user can act on become a message and exit 2; anything else is a bug and is rethrown
// for main to report with its stack. SQLite's errors about the store file (damaged, read-only,
// full) are the user's to act on too, named with the store's path.
import { DefinitionFileError } from '../definition/definition-file-error.ts';
import { sqliteStoreError } from '../store/sqlite-store-error.ts';
import { StoreError } from '../store/store-error.ts';
import type { CliIo } from './cli-io.ts';
import { EXIT_USAGE } from './exit-codes.ts';
import { InputError } from './input-error.ts';

/** `storeFile`: the store the body uses, to name in SQLite's errors about it. */
export async function withUserErrors(command: string, io: CliIo, body: () => Promise<number>, storeFile?: string): Promise<number> {
  try {
    return await body();
  } catch (error) {
    const e = storeFile === undefined ? error : sqliteStoreError(error, storeFile, 'use');
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
