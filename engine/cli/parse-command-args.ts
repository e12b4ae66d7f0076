// node:util parseArgs does the parsing; this turns its errors (unknown option, missing value)
// into UsageError so every command reports bad flags the same way, naming the flags it accepts.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './usage-error.ts';

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

/**
 * Parses a command's arguments strictly: unknown options are usage errors, positionals allowed.
 *
 * @example
 * const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } });
 */
export function parseCommandArgs<O extends OptionsConfig>(args: readonly string[], options: O) {
  rejectUnknownOptions(args, options);
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    if (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) {
      throw new UsageError(error.message);
    }
    throw error;
  }
}

/** parseArgs' own message for an unknown option is long and does not say what is accepted. */
function rejectUnknownOptions(args: readonly string[], options: OptionsConfig): void {
  const { tokens } = parseArgs({ args: [...args], options, allowPositionals: true, strict: false, tokens: true });
  const unknown = tokens.find((t) => t.kind === 'option' && !Object.hasOwn(options, t.name));
  if (unknown?.kind !== 'option') return;
  const accepted = Object.entries(options).map(([name, o]) => `--${name}${o.type === 'string' ? ' VALUE' : ''}`);
  const list = accepted.length === 0 ? 'it takes no options' : `it accepts ${accepted.join(', ')}`;
  throw new UsageError(`unknown option "${unknown.rawName}"; ${list} (put a file name starting with - after --)`);
}
