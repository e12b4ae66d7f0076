// A JSON value as it crosses the API: run input, step output, event data, task answers.
// `z.json()` would recurse once per nesting level and accept a missing key; this walks the value
// iteratively, refuses what JSON cannot carry (undefined, NaN, Infinity, functions, class
// instances) and caps nesting, and names the exact spot that is wrong.
import { z } from 'zod';
import { MAX_NESTING } from '../validator/parse-definition.ts';

/** A value that survives JSON.stringify → JSON.parse unchanged. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** What is wrong with a would-be JSON value, and where inside it; undefined when it is fine. */
export function findJsonProblem(value: unknown): { path: (string | number)[]; message: string } | undefined {
  const stack: { v: unknown; path: (string | number)[] }[] = [{ v: value, path: [] }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { v, path } = item;
    if (path.length > MAX_NESTING) return { path, message: `nested deeper than ${MAX_NESTING} levels; flatten the value` };
    if (v === null || typeof v === 'string' || typeof v === 'boolean') continue;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return { path, message: 'a number must be finite (JSON has no NaN or Infinity; 1e999999 overflows)' };
      continue;
    }
    if (Array.isArray(v)) {
      v.forEach((x: unknown, i) => stack.push({ v: x, path: [...path, i] }));
      continue;
    }
    if (typeof v === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(v))) {
      for (const [k, x] of Object.entries(v)) stack.push({ v: x, path: [...path, k] });
      continue;
    }
    const what = v === undefined ? 'nothing' : typeof v === 'object' ? `a ${v.constructor.name} object` : `a ${typeof v}`;
    return { path, message: `expected a JSON value (object, array, string, finite number, true, false or null), got ${what}` };
  }
  return undefined;
}

/**
 * Any JSON value; a missing key is an error, so mark optional fields with `.optional()`.
 *
 * @example
 * JsonValue.parse({ orderId: 'A17', items: [1, 2] }); // ok
 * JsonValue.safeParse({ amount: Infinity }).success; // false, issue path ['amount']
 */
export const JsonValue = z.custom<JsonValue>().superRefine((v, ctx) => {
  const problem = findJsonProblem(v);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem.message, path: problem.path, input: v });
});
