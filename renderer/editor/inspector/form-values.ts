// Form values ↔ document values. A cleared optional field removes its key (no empty strings or
// empty objects are left behind), and every edit is checked against the element's zod schema
// before it reaches the document, so the form cannot write a shape the format does not have.
import type { z } from 'zod';
import type { Segment } from './focus-target.ts';
import { fieldPath } from './focus-target.ts';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `root` with `value` at `path` (copying only along the path). `undefined` removes the key, and a
 * parent object left empty by that is removed too, unless `keep` says its path must stay (a
 * step's `config`, which most kinds require even when empty).
 *
 * @example
 * setIn({ retry: { maxAttempts: 3 } }, ['retry', 'maxAttempts'], undefined) // {}
 */
export function setIn(root: unknown, path: readonly Segment[], value: unknown, keep: (path: string) => boolean = () => false, at: Segment[] = []): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  if (typeof head === 'number') {
    const list = Array.isArray(root) ? [...root] : [];
    const next = setIn(list[head], rest, value, keep, [...at, head]);
    if (next === undefined) list.splice(head, 1);
    else list[head] = next;
    return list;
  }
  const object: Record<string, unknown> = isRecord(root) ? { ...root } : {};
  const next = setIn(object[head], rest, value, keep, [...at, head]);
  if (next === undefined) delete object[head];
  else object[head] = next;
  if (Object.keys(object).length === 0 && at.length > 0 && !keep(fieldPath(at))) return undefined;
  return object;
}

/** The value at `path`, or undefined. */
export function getIn(root: unknown, path: readonly Segment[]): unknown {
  let v = root;
  for (const s of path) {
    if (typeof s === 'number') v = Array.isArray(v) ? v[s] : undefined;
    else v = isRecord(v) ? v[s] : undefined;
  }
  return v;
}

/** "config.url" → ['config', 'url']; "config.argv[1]" → ['config', 'argv', 1]. */
export function segmentsOf(path: string): Segment[] {
  const out: Segment[] = [];
  for (const part of path.split('.')) {
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (m === null) {
      out.push(part);
      continue;
    }
    if (m[1] !== undefined && m[1] !== '') out.push(m[1]);
    for (const i of (m[2] ?? '').matchAll(/\[(\d+)\]/g)) out.push(Number(i[1]));
  }
  return out;
}

/**
 * Whether `value` has the shape of `schema`'s type. Cross-field rules (refinements: "an atLeast
 * join needs count") only run once the shape is right, so a value failing nothing but them still
 * is the type; the validator reports those rules as problems while the author is mid-way.
 */
export function conforms<S extends z.ZodType>(schema: S, value: unknown): value is z.output<S> {
  return firstShapeIssue(schema, value) === null;
}

/** The first issue that makes `value` not the type of `schema`, as "path: message"; null when none. */
export function firstShapeIssue(schema: z.ZodType, value: unknown): string | null {
  const result = schema.safeParse(value);
  if (result.success) return null;
  const issue = result.error.issues.find((i) => i.code !== 'custom');
  if (issue === undefined) return null;
  const where = fieldPath(issue.path.filter((s): s is Segment => typeof s === 'string' || typeof s === 'number'));
  return where === '' ? issue.message : `${where}: ${issue.message}`;
}

/** Chips (one string each) → the array a list field holds; an empty list clears the field. */
export function listValue<T>(items: readonly T[]): T[] | undefined {
  return items.length === 0 ? undefined : [...items];
}

/** Key/value rows → a record; rows with an empty key are drafts and are left out; no rows clears it. */
export function recordValue<T>(rows: ReadonlyArray<readonly [string, T]>): Record<string, T> | undefined {
  const out: Record<string, T> = {};
  for (const [k, v] of rows) if (k.trim() !== '') out[k.trim()] = v;
  return Object.keys(out).length === 0 ? undefined : out;
}

/** A number field's text → its value: empty clears it, anything else must be a number. */
export function numberValue(text: string): { ok: true; value: number | undefined } | { ok: false; error: string } {
  const t = text.trim();
  if (t === '') return { ok: true, value: undefined };
  const n = Number(t);
  if (!Number.isFinite(n)) return { ok: false, error: `"${t}" is not a number` };
  return { ok: true, value: n };
}

/** A text field's value: an optional field that is cleared loses its key. */
export const textValue = (text: string, optional: boolean): string | undefined => (optional && text === '' ? undefined : text);
