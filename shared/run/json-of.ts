// Values of a run model (input, outputs) as JSON values for a read model. Folded from a stored
// log they are JSON already; a live engine's model may still hold what JSON drops (an undefined
// field of an executor's output), so such a value is given as the log stored it.
import type { JsonValue } from '../api/json-value.ts';

/** True when `v` is made of null, booleans, finite numbers, strings, arrays and plain objects only. */
export function isJsonValue(v: unknown): v is JsonValue {
  const stack: unknown[] = [v];
  while (stack.length > 0) {
    const x = stack.pop();
    if (x === null || typeof x === 'string' || typeof x === 'boolean') continue;
    if (typeof x === 'number') {
      if (!Number.isFinite(x)) return false;
      continue;
    }
    if (Array.isArray(x)) {
      for (const item of x) stack.push(item);
      continue;
    }
    if (typeof x !== 'object') return false;
    const proto: unknown = Object.getPrototypeOf(x);
    if (proto !== Object.prototype && proto !== null) return false;
    for (const item of Object.values(x)) stack.push(item);
  }
  return true;
}

/**
 * `v` as a JSON value: itself when it is one, else what JSON.stringify would store for it.
 *
 * @example
 * jsonOf({ a: 1, b: undefined }); // { a: 1 }
 */
export function jsonOf(v: unknown): JsonValue {
  if (isJsonValue(v)) return v;
  const text = JSON.stringify(v ?? null);
  return text === undefined ? null : JSON.parse(text);
}
