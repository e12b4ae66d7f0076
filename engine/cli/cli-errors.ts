// Errors a user can act on become a message and exit 2; anything else is a bug and is rethrown
// for main to report with its stack. SQLite's errors about the store file (damaged, read-only,
// full) reach here already as StoreErrors naming the store (store-failure.ts, applied where the
// service opens, reads and runs the store). The service's errors name the field they are about,
// never a flag: the flag that gave the field is added here, where the command line is known.
import { serviceErrorOf } from '../service/service-error.ts';
import type { CliIo } from './cli-io.ts';
import { EXIT_USAGE } from './exit-codes.ts';
import { InputError } from './input-error.ts';

/** The command-line flag of each command field (a JSON path's first key) the service may name. */
const FLAGS: Readonly<Record<string, string>> = {
  input: '--input',
  data: '--data',
  output: '--output',
  evidence: '--evidence',
  choice: '--choice',
  reason: '--reason',
  by: '--by',
  to: '--to',
  key: '--key',
  id: '--id',
  from: '--from',
  priority: '--priority',
  budget: '--budget',
  'debug.breakpoints': '--break',
  'debug.pins': '--pin',
};

export async function withUserErrors(command: string, io: CliIo, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (e) {
    if (isUserError(e)) {
      io.stderr.write(`weft ${command}: ${userMessage(e)}\n`);
      return EXIT_USAGE;
    }
    throw e;
  }
}

export function isUserError(e: unknown): e is Error {
  return e instanceof InputError || serviceErrorOf(e) !== undefined;
}

/** The error's message on one line, with the flag of the field it is about when it has one. */
export function userMessage(e: Error): string {
  const path = serviceErrorOf(e)?.path?.replace(/^\$\.?/, '');
  const field = path?.split(/[.[]/)[0];
  // A nested field has its own flag (debug.pins is --pin), else the flag of its first key.
  const nested = path?.split(/[.[]/).slice(0, 2).join('.');
  const flag = (nested === undefined ? undefined : FLAGS[nested]) ?? (field === undefined ? undefined : FLAGS[field]);
  const message = oneLine(e.message);
  return flag === undefined || message.includes(flag) ? message : `${message} (${flag})`;
}

/** A message is one line: a newline in a name or a reason given on the command line stays visible. */
export function oneLine(message: string): string {
  return message.replace(/\r?\n/g, '\\n');
}
