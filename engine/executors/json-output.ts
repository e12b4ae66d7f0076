// A command's result is the JSON it prints on stdout. When that is not JSON, the message says
// where and what is wrong (Node 20's JSON.parse does not always say where), so the author can fix
// the program rather than guess.
import { locateJsonError, lineColumn } from '../../shared/definition/json-error-locator.ts';
import { findInvalidUtf8 } from '../definition/find-invalid-utf8.ts';

export type JsonOutput = { ok: true; value: unknown } | { ok: false; message: string };

const HINT = 'print exactly one JSON value on stdout and write logs to stderr';

/**
 * Parses stdout bytes as one JSON value; empty (or blank) output is `null`.
 *
 * @example
 * parseJsonOutput(Buffer.from('{"ok":true}\n')) // { ok: true, value: { ok: true } }
 */
export function parseJsonOutput(bytes: Buffer): JsonOutput {
  const bad = findInvalidUtf8(bytes);
  if (bad >= 0) {
    const hex = (bytes[bad] ?? 0).toString(16).padStart(2, '0');
    return { ok: false, message: `stdout is not valid UTF-8: byte ${bad} is 0x${hex}; ${HINT}` };
  }
  // A UTF-8 byte order mark (some Windows tools write one) is not part of the value.
  const decoded = bytes.toString('utf8');
  const bom = decoded.startsWith('\uFEFF') ? 3 : 0;
  const text = bom > 0 ? decoded.slice(1) : decoded;
  if (text.trim() === '') return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, message: describeSyntaxError(text, bom, error) };
  }
}

function describeSyntaxError(text: string, bom: number, error: unknown): string {
  const found = locateJsonError(text);
  if (found === undefined) return `stdout is not JSON: ${error instanceof Error ? error.message : String(error)}; ${HINT}`;
  const byte = bom + Buffer.byteLength(text.slice(0, found.offset));
  const { line, column } = lineColumn(text, found.offset);
  const near = text.slice(Math.max(0, found.offset - 20), found.offset + 20);
  return `stdout is not JSON: ${found.message} at byte ${byte} (line ${line}, column ${column}), near ${JSON.stringify(near)}; ${HINT}`;
}
