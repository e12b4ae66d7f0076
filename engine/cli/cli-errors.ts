// Errors a user can act on become a message and exit 2; anything else is a bug and is rethrown
// for main to report with its stack.
import { DefinitionFileError } from '../definition/definition-file-error.ts';
import { StoreError } from '../store/store-error.ts';
import type { CliIo } from './cli-io.ts';
import { EXIT_USAGE } from './exit-codes.ts';
import { InputError } from './input-error.ts';

export async function withUserErrors(command: string, io: CliIo, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (e) {
    if (e instanceof StoreError || e instanceof InputError || e instanceof DefinitionFileError) {
      io.stderr.write(`weft ${command}: ${e.message}\n`);
      return EXIT_USAGE;
    }
    throw e;
  }
}
