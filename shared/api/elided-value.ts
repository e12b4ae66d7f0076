// A value left out of an answer because it is large: RunDetail (`GET /api/runs/:id`) ships a stub
// in place of any run input, attempt input or output, or task form over DETAIL_VALUE_LIMIT bytes,
// and `GET /api/runs/:id/value?depth=` ships stubs for what lies deeper than asked. The stub says
// how big the value is, what it is, where it is (fetch it by `path`) and how it begins.
import { z } from 'zod';
import { DETAIL_VALUE_LIMIT, ELIDED_KINDS, PREVIEW_CHARS, type ElidedKind } from './read-limits.ts';

export { DETAIL_VALUE_LIMIT, ELIDED_KINDS, PREVIEW_CHARS, type ElidedKind };

/**
 * The stub of a value left out.
 *
 * @example
 * ElidedValue.parse({ $weft: 'elided', bytes: 5242880, path: 'steps.fetch.attempts[0].output', kind: 'object', count: 3, preview: '{"items":[{"id":0,' });
 */
export const ElidedValue = z.strictObject({
  $weft: z.literal('elided'),
  /** The size of the value's JSON text (JSON.stringify, no spaces), in UTF-8 bytes. */
  bytes: z.number().int().nonnegative(),
  /** Where the value is: pass it to `GET /api/runs/:id/value?path=`. */
  path: z.string().min(1),
  kind: z.enum(ELIDED_KINDS),
  /** Keys of an object, items of an array, characters of a string; null for other kinds. */
  count: z.number().int().nonnegative().nullable(),
  /** The first PREVIEW_CHARS characters of the value's JSON text. */
  preview: z.string(),
});
export type ElidedValue = z.infer<typeof ElidedValue>;

/**
 * True when `v` is an ElidedValue stub. Checks the marker and the fields the app relies on, not
 * the strict schema, so it is cheap enough to call on every node of a tree.
 *
 * @example
 * isElidedValue(detail.run.input) ? loadByPath(detail.run.input.path) : show(detail.run.input);
 */
export function isElidedValue(v: unknown): v is ElidedValue {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  return '$weft' in v && v.$weft === 'elided' && 'path' in v && typeof v.path === 'string' && 'bytes' in v && typeof v.bytes === 'number';
}
