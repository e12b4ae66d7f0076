// Leaving large values out of what the API ships: the ElidedValue stub of a value, RunDetail with
// its large values stubbed (what `GET /api/runs/:id` sends), and one value shaped for
// `GET /api/runs/:id/value`: sliced, and stubbed below a depth. Pure: the server calls it; tests
// and the app can too.
import type { JsonValue } from '../api/json-value.ts';
import type { ElidedValue } from '../api/elided-value.ts';
import { ELIDED_KINDS, PREVIEW_CHARS, type ElidedKind } from '../api/read-limits.ts';
import type { AttemptDetail, RunDetail } from '../api/run-detail.ts';
import type { RunValue } from '../api/run-value.ts';
import { appendPath, segmentText } from '../api/value-path.ts';
import { jsonOf } from './json-of.ts';
import { z } from 'zod';
import { EVENT_DATA, type EventType } from '../events/run-event.ts';

const NON_ASCII = /[^\x00-\x7f]+/g;

/** The UTF-8 size of a text, without encoding it. ASCII runs are counted natively (by the regex). */
export function utf8Bytes(text: string): number {
  let n = text.length;
  for (const run of text.matchAll(NON_ASCII)) n += extraBytes(run[0]);
  return n;
}

/** Bytes beyond one per UTF-16 unit, for a run of non-ASCII units. */
function extraBytes(run: string): number {
  let n = 0;
  for (let i = 0; i < run.length; i++) {
    const c = run.charCodeAt(i);
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < run.length && (run.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: two units, one code point of 4 bytes.
      n += 2;
      i++;
    } else n += 2; // the rest of the BMP; a lone surrogate is written as U+FFFD, also 3 bytes
  }
  return n;
}

/** The kind of a JSON value. */
export function kindOf(v: JsonValue): ElidedKind {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  const t = typeof v;
  return ELIDED_KINDS.find((k) => k === t) ?? 'object';
}

/** Entries of an array or object, characters of a string; null otherwise. */
function countOf(v: JsonValue): number | null {
  if (typeof v === 'string') return v.length;
  if (v === null || typeof v !== 'object') return null;
  return Array.isArray(v) ? v.length : Object.keys(v).length;
}

/**
 * The stub of `value`, found at `path`; `text` is its JSON when the caller has it already.
 *
 * @example
 * elidedStub({ a: 1 }, 'run.input'); // { $weft: 'elided', bytes: 7, path: 'run.input', kind: 'object', count: 1, preview: '{"a":1}' }
 */
export function elidedStub(value: JsonValue, path: string, text: string = JSON.stringify(value)): ElidedValue {
  return { $weft: 'elided', bytes: utf8Bytes(text), path, kind: kindOf(value), count: countOf(value), preview: text.slice(0, PREVIEW_CHARS) };
}

/** `value` itself when its JSON is at most `limit` bytes, else its stub. */
export function elideOver(value: JsonValue, path: string, limit: number): JsonValue {
  // Cheap bounds first: a UTF-8 text has at least as many bytes as UTF-16 units, at most 3 per unit.
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string' && value.length * 3 + 2 <= limit) return value;
  const text = JSON.stringify(value);
  if (text.length * 3 <= limit) return value;
  if (text.length <= limit && utf8Bytes(text) <= limit) return value;
  return elidedStub(value, path, text);
}

/**
 * The RunDetail with every run input, attempt input and output, and task form over `limit` bytes
 * replaced by its ElidedValue stub (path `run.input`, `steps.ID.attempts[K].output`,
 * `tasks[K].form`). The restart record's own fields, the definition and the rest are untouched.
 *
 * @example
 * const small = elideRunDetail(detail, DETAIL_VALUE_LIMIT);
 * isElidedValue(small.steps[0].attempts[0].output); // true when that output was over 64 KiB
 */
export function elideRunDetail(detail: RunDetail, limit: number): RunDetail {
  return {
    ...detail,
    run: { ...detail.run, input: elideOver(detail.run.input, 'run.input', limit) },
    // A summary's attempts are the step's latest: their places in its whole list start further on.
    steps: detail.steps.map((s) => ({ ...s, attempts: elideAttempts(s.id, s.attempts, (s.attemptCount ?? s.attempts.length) - s.attempts.length, limit) })),
    tasks: detail.tasks.map((t, k) => {
      if (t.form === null) return t;
      const form = elideOver(jsonOf(t.form), `tasks[${k}].form`, limit);
      // A stub is an object too, so it still fits the form's schema (a record).
      return form !== null && typeof form === 'object' && !Array.isArray(form) ? { ...t, form } : t;
    }),
  };
}

/**
 * Attempts of step `stepId` at places `from` onward of its list, each input and output over
 * `limit` bytes replaced by its stub (path `steps.ID.attempts[K].output`, K the attempt's place).
 *
 * @example
 * elideAttempts('fetch', page.attempts, page.from, DETAIL_VALUE_LIMIT);
 */
export function elideAttempts(stepId: string, attempts: readonly AttemptDetail[], from: number, limit: number): AttemptDetail[] {
  return attempts.map((a, k): AttemptDetail => {
    const at = `steps${segmentText(stepId)}.attempts[${from + k}]`;
    return { ...a, input: elideOver(a.input, `${at}.input`, limit), ...(a.output === undefined ? {} : { output: elideOver(a.output, `${at}.output`, limit) }) };
  });
}

/**
 * The event with each value of its `data` over `limit` bytes replaced by its stub, whose path
 * (`events[SEQ].data.KEY`) the value route reads back from the stored event. The event's other
 * fields (type, step, reason) are never cut: folds and markers need them whole. Nor is a value
 * whose place in the event's schema has a shape of its own (an attempt's `error`, a step's
 * `edges`): a stub there would make the event fail its schema, so it stays whole; only places
 * that take any JSON value (inputs, outputs, forms, evidence) are cut.
 *
 * @example
 * elideEvent({ seq: 7, type: 'attempt_succeeded', data: { output: big, evidenceId: 'e1' }, ... }, 65536).data.output;
 * // { $weft: 'elided', path: 'events[7].data.output', ... }
 */
export function elideEvent<E extends { seq: number; type: EventType; data: unknown }>(event: E, limit: number): E {
  const data = event.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return event;
  let changed = false;
  const cut: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined) continue;
    const whole = jsonOf(value);
    const small = elideOver(whole, `events[${event.seq}].data${segmentText(key)}`, limit);
    if (small !== whole && stubFits(event.type, key, small)) {
      changed = true;
      cut[key] = small;
    } else cut[key] = value;
  }
  return changed ? { ...event, data: cut } : event;
}

/** True when the schema of the event type's `key` takes the stub (any JSON value, or a record). */
function stubFits(type: EventType, key: string, stub: JsonValue): boolean {
  const field: unknown = Object.getOwnPropertyDescriptor(EVENT_DATA[type].shape, key)?.value;
  return field instanceof z.ZodType && field.safeParse(stub).success;
}

/** How a value is cut for `GET /api/runs/:id/value`. */
export interface ShapeOptions {
  /** Levels below the value sent in full; deeper containers over `inlineBytes` become stubs. */
  depth?: number;
  /** First entry of the value's own array or object to send. */
  offset?: number;
  /** How many entries of it to send. */
  limit?: number;
  /** A deeper container is sent whole while its JSON is at most this. */
  inlineBytes: number;
  /** With a depth, strings over this are stubs too (fetch them by their path). */
  stringLimit: number;
}

/**
 * The answer of `GET /api/runs/:id/value` for `value`, found at `path`.
 *
 * @example
 * shapeValue({ a: { b: [1, 2] } }, 'run.input', { depth: 1, inlineBytes: 0, stringLimit: 65536 }).value;
 * // { a: { $weft: 'elided', path: 'run.input.a', kind: 'object', ... } }
 */
export function shapeValue(value: JsonValue, path: string, o: ShapeOptions): RunValue {
  const text = JSON.stringify(value);
  const total = countOf(value);
  const isContainer = value !== null && typeof value === 'object';
  const offset = isContainer ? Math.min(o.offset ?? 0, total ?? 0) : 0;
  const end = o.limit === undefined ? undefined : offset + o.limit;
  let shaped: JsonValue = value;
  if (Array.isArray(value)) {
    shaped = value.slice(offset, end).map((x, i) => cut(x, appendPath(path, offset + i), 1, o));
  } else if (isContainer) {
    shaped = Object.fromEntries(Object.entries(value).slice(offset, end).map(([k, x]) => [k, cut(x, appendPath(path, k), 1, o)]));
  }
  return { path, kind: kindOf(value), bytes: utf8Bytes(text), total: isContainer ? total : null, offset, value: shaped };
}

/** `v` at `level` below the value asked for, stubbed where the options say. */
function cut(v: JsonValue, path: string, level: number, o: ShapeOptions): JsonValue {
  if (o.depth === undefined) return v;
  if (typeof v === 'string') return elideOver(v, path, o.stringLimit);
  if (v === null || typeof v !== 'object') return v;
  if (level >= o.depth) return elideOver(v, path, o.inlineBytes);
  if (Array.isArray(v)) return v.map((x, i) => cut(x, appendPath(path, i), level + 1, o));
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cut(x, appendPath(path, k), level + 1, o)]));
}
