// What JSON.parse accepts but a run cannot keep: nesting so deep that the recursive walks after
// it (hashing, schema checks, storing) overflow the stack, and numbers too large for a double,
// which JSON.parse makes Infinity and JSON.stringify then stores as null. Found by an iterative
// walk, so the check itself never overflows.
import type { JsonValue } from '../../shared/api/json-value.ts';
import { formatPath } from '../../shared/validator/diagnostic.ts';

/** Deeper than this is refused: far beyond any real input, far below the stack's limit. */
export const MAX_INPUT_NESTING = 256;

/** A one-clause description of the first problem in `value` (parsed from `text`), or undefined. */
export function jsonValueProblem(value: unknown, text: string): string | undefined {
  const stack: { value: unknown; path: PropertyKey[] }[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: v, path } = stack.pop() as { value: unknown; path: PropertyKey[] };
    if (typeof v === 'number' && !Number.isFinite(v)) {
      return `the number ${firstHugeNumber(text) ?? String(v)} at ${shorten(formatPath(path))} is too large to store as JSON (it would become null); give a smaller number, or a string`;
    }
    if (v === null || typeof v !== 'object') continue;
    if (path.length >= MAX_INPUT_NESTING) {
      return `the JSON nests deeper than ${MAX_INPUT_NESTING} levels at ${shorten(formatPath(path))}; flatten the value`;
    }
    const entries: [PropertyKey, unknown][] = Array.isArray(v) ? v.map((x, k) => [k, x]) : Object.entries(v);
    // Pushed in reverse, so the first problem in document order is the one reported.
    for (let k = entries.length - 1; k >= 0; k--) {
      const [key, child] = entries[k] as [PropertyKey, unknown];
      stack.push({ value: child, path: [...path, key] });
    }
  }
  return undefined;
}

/** A value JSON.parse gave from `text` that can be stored as it is (no problem above). */
export function isStorableJson(value: unknown, text: string): value is JsonValue {
  return jsonValueProblem(value, text) === undefined;
}

/** The first number literal of the text that is too large for a double, as the user wrote it. */
function firstHugeNumber(text: string): string | undefined {
  for (const m of text.matchAll(/"(?:[^"\\]|\\.)*"|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g)) {
    const literal = m[1];
    if (literal !== undefined && !Number.isFinite(Number(literal))) return literal.length > 40 ? `${literal.slice(0, 40)}…` : literal;
  }
  return undefined;
}

const shorten = (p: string): string => (p.length > 60 ? `${p.slice(0, 40)}…${p.slice(-16)}` : p);
