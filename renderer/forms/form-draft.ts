// What a person has typed into a schema form (the draft: text as typed, so "12." or "" can be on
// screen) and the JSON value it stands for, with a message per field for what the schema refuses.
// The checks cover the subset the form draws; the engine checks the whole schema and its refusal
// is shown for the rest (ajv compiles with eval, which the app's Content-Security-Policy forbids).
import type { JsonValue } from '../../shared/api/json-value.ts';
import type { FieldSpec, FormSpec, ScalarField } from './form-spec.ts';

/** A field's draft: text for text, number, enum (the option as JSON) and raw JSON fields. */
export type Draft = string | boolean | Draft[] | { [key: string]: Draft };
export type FormDraft = { [key: string]: Draft };

/** A message for one field, at its JSON path (`$.address.city`, `$.tags[1]`). */
export interface FieldError {
  path: string;
  message: string;
}

export interface FormRead {
  /** The value of the filled fields (optional fields left empty are left out). */
  value: { [key: string]: JsonValue };
  errors: FieldError[];
}

/** The draft showing `value` (or the schema's defaults where it has none). */
export function draftOf(spec: FormSpec, value: JsonValue | undefined): FormDraft {
  const object = isRecord(value) ? value : {};
  return Object.fromEntries(spec.fields.map((f) => [f.key, fieldDraft(f, object[f.key])]));
}

export function fieldDraft(field: FieldSpec, given: JsonValue | undefined): Draft {
  const value = given ?? field.default;
  switch (field.kind) {
    case 'text':
      if (typeof value !== 'string') return '';
      return field.input === 'datetime-local' ? isoToLocal(value) : value;
    case 'number':
      return typeof value === 'number' ? String(value) : '';
    case 'boolean':
      return value === true;
    case 'enum': {
      const match = field.options.find((o) => o === value);
      return value !== undefined && match !== undefined ? JSON.stringify(match) : '';
    }
    case 'list':
      return Array.isArray(value) ? value.map((v) => scalarDraftText(field.item, v)) : [];
    case 'object':
      return Object.fromEntries(field.fields.map((f) => [f.key, fieldDraft(f, isRecord(value) ? value[f.key] : undefined)]));
    case 'json':
      return value === undefined ? '' : JSON.stringify(value, null, 2);
  }
}

function scalarDraftText(item: ScalarField, value: JsonValue): string {
  const d = fieldDraft(item, value);
  return typeof d === 'string' ? d : String(d);
}

/**
 * The value a draft stands for and every field's problem.
 *
 * @example
 * readForm(spec, { topic: 'ab', maxWords: '50' }).errors;
 * // [{ path: '$.topic', message: 'at least 3 characters' }, { path: '$.maxWords', message: 'at least 100' }]
 */
export function readForm(spec: FormSpec, draft: FormDraft): FormRead {
  const errors: FieldError[] = [];
  const value = readFields(spec.fields, draft, '$', errors);
  return { value, errors };
}

function readFields(fields: readonly FieldSpec[], draft: { [key: string]: Draft }, path: string, errors: FieldError[]): { [key: string]: JsonValue } {
  const out: { [key: string]: JsonValue } = {};
  for (const field of fields) {
    const v = readField(field, draft[field.key], `${path}.${field.key}`, errors);
    if (v !== undefined) out[field.key] = v;
  }
  return out;
}

/** One field's value (undefined: left empty), its problems added to `errors`. */
export function readField(field: FieldSpec, draft: Draft | undefined, path: string, errors: FieldError[]): JsonValue | undefined {
  const fail = (message: string): undefined => {
    errors.push({ path, message });
    return undefined;
  };
  if (field.kind === 'boolean') return draft === true || draft === 'true';
  if (field.kind === 'object') {
    // An optional object left empty is left out, with no complaint about its required fields.
    const own: FieldError[] = [];
    const value = readFields(field.fields, isDraftRecord(draft) ? draft : {}, path, own);
    if (Object.keys(value).length === 0 && !field.required) return undefined;
    errors.push(...own);
    return value;
  }
  if (field.kind === 'list') {
    const items = Array.isArray(draft) ? draft : [];
    const value: JsonValue[] = [];
    items.forEach((d, i) => {
      if (d === '') return;
      const v = readField(field.item, d, `${path}[${i}]`, errors);
      if (v !== undefined) value.push(v);
    });
    if (value.length === 0 && !field.required) return undefined;
    if (field.minItems !== undefined && value.length < field.minItems) fail(`at least ${plural(field.minItems, 'item')}`);
    if (field.maxItems !== undefined && value.length > field.maxItems) fail(`at most ${plural(field.maxItems, 'item')}`);
    return value;
  }
  const text = typeof draft === 'string' ? draft : '';
  // An empty field is left out; spaces are a value in a text field only.
  const empty = field.kind === 'text' ? text === '' : text.trim() === '';
  if (empty) return field.required ? fail('required') : undefined;
  switch (field.kind) {
    case 'text':
      return readText(field, text, fail);
    case 'number': {
      const n = Number(text.trim());
      if (!Number.isFinite(n)) return fail('must be a number');
      if (field.integer && !Number.isInteger(n)) return fail('must be a whole number');
      if (field.minimum !== undefined && n < field.minimum) return fail(`at least ${field.minimum}`);
      if (field.maximum !== undefined && n > field.maximum) return fail(`at most ${field.maximum}`);
      if (field.exclusiveMinimum !== undefined && n <= field.exclusiveMinimum) return fail(`more than ${field.exclusiveMinimum}`);
      if (field.exclusiveMaximum !== undefined && n >= field.exclusiveMaximum) return fail(`less than ${field.exclusiveMaximum}`);
      return n;
    }
    case 'enum': {
      const option = field.options.find((o) => JSON.stringify(o) === text);
      return option === undefined ? fail(`choose one of ${field.options.map((o) => JSON.stringify(o)).join(', ')}`) : option;
    }
    case 'json':
      try {
        const parsed: JsonValue = JSON.parse(text);
        return parsed;
      } catch (error) {
        return fail(`not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
      }
  }
}

function readText(field: Extract<FieldSpec, { kind: 'text' }>, text: string, fail: (m: string) => undefined): JsonValue | undefined {
  let value = text;
  if (field.input === 'datetime-local') {
    const iso = localToIso(text);
    if (iso === null) return fail('not a date and time');
    value = iso;
  }
  if (field.input === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(text)) return fail('a date such as 2026-12-01');
  if (field.input === 'email' && !/^[^\s@]+@[^\s@]+$/.test(text)) return fail('an e-mail address such as ana@example.org');
  if (field.input === 'url' && !isUrl(text)) return fail('an address such as https://example.org/page');
  const length = [...text].length;
  if (field.minLength !== undefined && length < field.minLength) return fail(`at least ${plural(field.minLength, 'character')}`);
  if (field.maxLength !== undefined && length > field.maxLength) return fail(`at most ${plural(field.maxLength, 'character')}`);
  if (field.pattern !== undefined && !matches(field.pattern, text)) return fail(`must match ${field.pattern}`);
  return value;
}

/** The ISO time of a `datetime-local` value (the browser's time zone), or null. */
export function localToIso(local: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(local)) return null;
  const t = new Date(local).getTime();
  return Number.isFinite(t) ? new Date(t).toISOString() : null;
}

/** The `datetime-local` text of an ISO time, in the browser's time zone ('' if it is not one). */
export function isoToLocal(iso: string): string {
  const d = new Date(iso);
  if (!Number.isFinite(d.getTime())) return '';
  const p = (n: number) => String(n).padStart(2, '0');
  const seconds = d.getSeconds() === 0 && d.getMilliseconds() === 0 ? '' : `:${p(d.getSeconds())}`;
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}${seconds}`;
}

/**
 * Whether the form can show `value` without losing any of it: a value with keys the form has no
 * field for, or of another shape, stays in the JSON tab.
 */
export function fitsForm(spec: FormSpec, value: JsonValue): boolean {
  if (!isRecord(value)) return false;
  const read = readForm(spec, draftOf(spec, value));
  return JSON.stringify(sortKeys(read.value)) === JSON.stringify(sortKeys(value));
}

function sortKeys(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (isRecord(v)) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys(v[k] ?? null)]));
  return v;
}

function isUrl(text: string): boolean {
  try {
    return new URL(text).protocol !== '';
  } catch {
    return false;
  }
}

function matches(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(text);
  } catch {
    // A pattern JavaScript cannot read is left to the engine's check.
    return true;
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function isRecord(v: JsonValue | undefined): v is { [key: string]: JsonValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isDraftRecord(d: Draft | undefined): d is { [key: string]: Draft } {
  return typeof d === 'object' && !Array.isArray(d);
}
