// `GET /api/runs/:id/value?path=&depth=&offset=&limit=`: one value of a run (or a part of one), by
// its value path (value-path.ts), in full or level by level, so a client opens a value of several
// megabytes without ever receiving it whole.
import { z } from 'zod';
import { JsonValue } from './json-value.ts';
import { MAX_VALUE_PATH_LENGTH } from './value-path.ts';
import { ELIDED_KINDS, INLINE_CHILD_BYTES, MAX_VALUE_DEPTH, MAX_VALUE_PAGE } from './read-limits.ts';

export { INLINE_CHILD_BYTES, MAX_VALUE_DEPTH, MAX_VALUE_PAGE };

const count = (what: string, max: number) => z.coerce.number({ error: `${what} must be a whole number` }).int(`${what} must be a whole number`).nonnegative(`${what} must be 0 or more`).max(max, `${what} is at most ${max}`);

/**
 * The query. Without `depth` the value comes whole. With `depth=N`, containers nested more than N
 * levels below it come as ElidedValue stubs when their JSON is over INLINE_CHILD_BYTES, and so
 * does any string over the detail's limit; `depth=1` opens one level. `offset` and `limit` take a
 * slice of the entries of the value itself (items of an array, keys of an object in their order).
 *
 * @example
 * RunValueQuery.parse({ path: 'steps.fetch.attempts[0].output', depth: '1', limit: '200' });
 */
export const RunValueQuery = z.strictObject({
  path: z.string({ error: 'give the value path, e.g. ?path=run.input' }).min(1, 'give the value path, e.g. ?path=run.input').max(MAX_VALUE_PATH_LENGTH, `a value path is at most ${MAX_VALUE_PATH_LENGTH} characters`),
  depth: count('depth', MAX_VALUE_DEPTH).pipe(z.number().min(1, 'depth must be 1 or more (leave it out for the whole value)')).optional(),
  offset: count('offset', Number.MAX_SAFE_INTEGER).optional(),
  limit: count('limit', MAX_VALUE_PAGE).pipe(z.number().min(1, 'limit must be 1 or more')).optional(),
});
export type RunValueQuery = z.infer<typeof RunValueQuery>;

/**
 * The answer: the value (with stubs below `depth`, sliced by `offset`/`limit`), where it is, its
 * whole size, and for an array or object how many entries it has and which were sent.
 *
 * @example
 * RunValue.parse({ path: 'run.input', kind: 'object', bytes: 17, total: 1, offset: 0, value: { orderId: 'A17' } });
 */
export const RunValue = z.strictObject({
  /** The canonical text of the path asked for. */
  path: z.string(),
  kind: z.enum(ELIDED_KINDS),
  /** The whole value's JSON size in UTF-8 bytes. */
  bytes: z.number().int().nonnegative(),
  /** Entries of an array or object (null for other kinds); `value` holds those from `offset` on. */
  total: z.number().int().nonnegative().nullable(),
  offset: z.number().int().nonnegative(),
  value: JsonValue,
});
export type RunValue = z.infer<typeof RunValue>;
