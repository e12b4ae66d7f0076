// `--input JSON` or `--input @file` (and --data, --output, --evidence, read the same way): a JSON
// value, parsed and checked before anything is stored. Only a regular file is read: a folder is
// refused, and a FIFO or device is never opened (opening one waits for a writer, for ever). Every
// problem is an InputError (exit 2) that names the flag and, for @file, the file.
import { readFileSync, statSync, type Stats } from 'node:fs';
import { resolve } from 'node:path';
import { lineColumn, locateJsonError } from '../../shared/definition/json-error-locator.ts';
import { InputError } from './input-error.ts';
import { isStorableJson, jsonValueProblem } from './json-value-problem.ts';
import type { JsonValue } from '../../shared/api/json-value.ts';

/** Largest JSON file a flag reads: far above any real input, far below memory trouble. */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;

/** `flag`: the option the value came from, named in every message. */
export function readRunInput(option: string | undefined, cwd: string, flag = '--input'): JsonValue {
  if (option === undefined) return {};
  let text = option;
  let where = flag;
  if (option.startsWith('@')) {
    const path = resolve(cwd, option.slice(1));
    where = `${flag} @${path}`;
    text = readInputFile(path, flag, where);
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    const at = locateJsonError(text);
    const { line, column } = lineColumn(text, at?.offset ?? 0);
    throw new InputError(`${where} is not valid JSON at line ${line}, column ${column}: ${at?.message ?? 'syntax error'}; pass a JSON value such as '{"orderId": "A17"}' or @file.json`);
  }
  if (isStorableJson(value, text)) return value;
  throw new InputError(`${where}: ${jsonValueProblem(value, text) ?? 'not a JSON value'}`);
}

function readInputFile(path: string, flag: string, where: string): string {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (e) {
    throw new InputError(`${flag}: cannot read the input file ${path}: ${(e as { code?: string }).code ?? (e as Error).message}`);
  }
  if (!stats.isFile()) throw new InputError(`${where}: this is ${kindOf(stats)}, not a regular file; give a JSON file, or the JSON itself`);
  if (stats.size > MAX_INPUT_BYTES) throw new InputError(`${where}: the file is ${stats.size} bytes, more than the ${MAX_INPUT_BYTES} a JSON value may have`);
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new InputError(`${flag}: cannot read the input file ${path}: ${(e as { code?: string }).code ?? (e as Error).message}`);
  }
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO (a named pipe)';
  if (stats.isSocket()) return 'a socket';
  return 'a device';
}
