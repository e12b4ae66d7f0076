// A field-level diff of two JSON values, for comparing what two runs gave and got: each leaf (or
// subtree that changed type) that differs, with its JSON path in the form the API's errors use.
import type { FieldDifference } from '../api/run-comparison.ts';
import type { JsonValue } from '../api/json-value.ts';

type Json = JsonValue | undefined;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `$.a.b`, `$.items[2]`, `$["odd key"]`. */
export const childPath = (parent: string, key: string | number): string =>
  typeof key === 'number' ? `${parent}[${key}]` : IDENTIFIER.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;

const isObject = (v: Json): v is { [key: string]: JsonValue } => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The fields where `a` and `b` differ, in path order: object keys regardless of their order
 * (visited sorted), arrays index by index (extra items are fields the other side lacks), and a
 * value whose type differs (an object in A, a number in B) as one field. `undefined` is a field
 * that is absent, and is left out of the entry. Walks iteratively, so deep values cannot overflow.
 *
 * @example
 * jsonDiff({ n: 1, tags: ['a'] }, { tags: ['a', 'b'], n: 2 });
 * // [{ path: '$.n', a: 1, b: 2 }, { path: '$.tags[1]', b: 'b' }]
 */
export function jsonDiff(a: Json, b: Json): FieldDifference[] {
  const out: FieldDifference[] = [];
  const stack: { path: string; a: Json; b: Json }[] = [{ path: '$', a, b }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { path, a: x, b: y } = item;
    // Equal subtrees are skipped before any path is built: most of two runs' values agree.
    if (x === y || sameJson(x, y)) continue;
    const children: { path: string; a: Json; b: Json }[] = [];
    if (Array.isArray(x) && Array.isArray(y)) {
      for (let i = 0; i < Math.max(x.length, y.length); i++) children.push({ path: childPath(path, i), a: x[i], b: y[i] });
    } else if (isObject(x) && isObject(y)) {
      const keys = [...new Set([...Object.keys(x), ...Object.keys(y)])].sort();
      for (const k of keys) children.push({ path: childPath(path, k), a: Object.hasOwn(x, k) ? x[k] : undefined, b: Object.hasOwn(y, k) ? y[k] : undefined });
    } else {
      out.push({ path, ...(x === undefined ? {} : { a: x }), ...(y === undefined ? {} : { b: y }) });
      continue;
    }
    // Reversed onto the stack, so they come off in order.
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (child !== undefined) stack.push(child);
    }
  }
  return out;
}

/**
 * Whether two JSON values are equal, object keys in any order; stops at the first difference and
 * allocates no paths, so jsonDiff skips equal subtrees cheaply. Iterative, like jsonDiff.
 */
function sameJson(a: Json, b: Json): boolean {
  const stack: [Json, Json][] = [[a, b]];
  for (let pair = stack.pop(); pair !== undefined; pair = stack.pop()) {
    const [x, y] = pair;
    if (x === y) continue;
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) stack.push([x[i], y[i]]);
    } else if (isObject(x)) {
      if (!isObject(y)) return false;
      const keys = Object.keys(x);
      if (keys.length !== Object.keys(y).length) return false;
      for (const k of keys) {
        if (!Object.hasOwn(y, k)) return false;
        stack.push([x[k], y[k]]);
      }
    } else return false;
  }
  return true;
}
