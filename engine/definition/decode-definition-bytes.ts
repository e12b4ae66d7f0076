// Bytes → text for a definition file. Workflow files are UTF-8 by contract; anything else gets a
// `not-text` diagnostic that says where the bad byte is, instead of silently becoming U+FFFD.
import { lineColumn } from '../../shared/definition/json-error-locator.ts';
import type { Diagnostic } from '../../shared/validator/diagnostic.ts';
import { findInvalidUtf8 } from './find-invalid-utf8.ts';

export type DecodeResult = { ok: true; text: string } | { ok: false; diagnostic: Diagnostic };

const SAVE_AS_UTF8 = 'a .weft.json file is JSON saved as UTF-8; re-save it as UTF-8 in your editor, or check that you passed the right file';

/**
 * Decodes a definition file's bytes as strict UTF-8. A leading UTF-8 byte order mark is dropped
 * (TextDecoder does that unless told `ignoreBOM`), so files saved by Windows editors still parse.
 *
 * @example
 * const r = decodeDefinitionBytes(await readFile(path));
 * if (r.ok) validateDefinitionText(r.text);
 */
export function decodeDefinitionBytes(bytes: Uint8Array): DecodeResult {
  if (startsWithUtf16Bom(bytes)) {
    return notText('the file is UTF-16 text (it starts with a UTF-16 byte order mark), not UTF-8', { line: 1, column: 1 });
  }
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    const offset = Math.max(0, findInvalidUtf8(bytes));
    const before = new TextDecoder('utf-8').decode(bytes.subarray(0, offset));
    const at = lineColumn(before, before.length);
    const byte = (bytes[offset] ?? 0).toString(16).toUpperCase().padStart(2, '0');
    return notText(
      `the file is not UTF-8 text: byte 0x${byte} at byte offset ${offset} (line ${at.line}, column ${at.column}) is not valid UTF-8`,
      at,
    );
  }
}

function startsWithUtf16Bom(bytes: Uint8Array): boolean {
  const [a, b] = bytes;
  return (a === 0xff && b === 0xfe) || (a === 0xfe && b === 0xff);
}

function notText(message: string, at: { line: number; column: number }): DecodeResult {
  return {
    ok: false,
    diagnostic: { code: 'not-text', severity: 'error', path: '$', message, hint: SAVE_AS_UTF8, ...at },
  };
}
