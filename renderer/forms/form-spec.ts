// A JSON Schema read as a form: which fields to draw, with their labels, hints, limits and
// defaults. Only a subset renders as controls (scalars, enums, lists of scalars, nested objects);
// anything else (oneOf, $ref, arrays of objects, ...) becomes a JSON field of its own, and a root
// that is not an object with properties has no form at all: the caller offers JSON instead.
import { findJsonProblem, type JsonValue } from '../../shared/api/json-value.ts';

export type Scalar = string | number | boolean | null;

/** The HTML input a string field uses, from its `format`. */
export type TextInput = 'text' | 'email' | 'url' | 'date' | 'datetime-local';

interface FieldBase {
  key: string;
  label: string;
  required: boolean;
  description?: string;
  default?: JsonValue;
}

export interface TextField extends FieldBase {
  kind: 'text';
  input: TextInput;
  minLength?: number | undefined;
  maxLength?: number | undefined;
  pattern?: string | undefined;
}
export interface NumberField extends FieldBase {
  kind: 'number';
  integer: boolean;
  minimum?: number | undefined;
  maximum?: number | undefined;
  exclusiveMinimum?: number | undefined;
  exclusiveMaximum?: number | undefined;
}
export interface BooleanField extends FieldBase {
  kind: 'boolean';
}
export interface EnumField extends FieldBase {
  kind: 'enum';
  options: Scalar[];
}
export type ScalarField = TextField | NumberField | BooleanField | EnumField;
export interface ListField extends FieldBase {
  kind: 'list';
  item: ScalarField;
  minItems?: number | undefined;
  maxItems?: number | undefined;
}
export interface ObjectField extends FieldBase {
  kind: 'object';
  fields: FieldSpec[];
}
/** A part of the schema the form does not draw: edited as JSON text. */
export interface JsonField extends FieldBase {
  kind: 'json';
}
export type FieldSpec = ScalarField | ListField | ObjectField | JsonField;

export interface FormSpec {
  fields: FieldSpec[];
  /** Keys that allow no properties beyond the listed ones (`additionalProperties: false`). */
  closed: boolean;
}

/** Nested objects deeper than this are edited as JSON: a form six fieldsets deep helps nobody. */
const MAX_DEPTH = 4;
const COMBINATORS = ['oneOf', 'anyOf', 'allOf', 'not', '$ref', 'if', 'patternProperties'];

type SchemaObject = Record<string, unknown>;

function isObject(v: unknown): v is SchemaObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isJsonValue(v: unknown): v is JsonValue {
  return v !== undefined && findJsonProblem(v) === undefined;
}

function isScalar(v: unknown): v is Scalar {
  return v === null || ['string', 'number', 'boolean'].includes(typeof v);
}

/**
 * The form of an object schema, or null when the schema is not one the form can draw.
 *
 * @example
 * formSpec({ type: 'object', required: ['topic'], properties: { topic: { type: 'string' } } });
 * // { fields: [{ kind: 'text', key: 'topic', label: 'topic', required: true, input: 'text' }], closed: false }
 */
export function formSpec(schema: unknown): FormSpec | null {
  if (!isObject(schema) || !isObjectSchema(schema) || COMBINATORS.some((k) => k in schema)) return null;
  const fields = objectFields(schema, 0);
  if (fields.length === 0) return null;
  return { fields, closed: schema['additionalProperties'] === false };
}

function isObjectSchema(schema: SchemaObject): boolean {
  return (schema['type'] === 'object' || schema['type'] === undefined) && isObject(schema['properties']);
}

function objectFields(schema: SchemaObject, depth: number): FieldSpec[] {
  const properties = isObject(schema['properties']) ? schema['properties'] : {};
  const required = new Set(Array.isArray(schema['required']) ? schema['required'].filter((r): r is string => typeof r === 'string') : []);
  return Object.entries(properties).map(([key, s]) => fieldSpec(key, s, required.has(key), depth + 1));
}

/** One property's field; `depth` counts the objects around it. */
export function fieldSpec(key: string, schema: unknown, required: boolean, depth = 1): FieldSpec {
  const base = baseOf(key, schema, required);
  if (!isObject(schema) || COMBINATORS.some((k) => k in schema)) return { ...base, kind: 'json' };
  const scalar = scalarSpec(base, schema);
  if (scalar !== null) return scalar;
  const type = singleType(schema);
  if (type === 'array') {
    const items = schema['items'];
    const item = isObject(items) && !COMBINATORS.some((k) => k in items) ? scalarSpec(baseOf('', items, true), items) : null;
    if (item === null) return { ...base, kind: 'json' };
    return { ...base, kind: 'list', item, minItems: numberAt(schema, 'minItems'), maxItems: numberAt(schema, 'maxItems') };
  }
  if (type === 'object' && isObjectSchema(schema) && depth < MAX_DEPTH) {
    const fields = objectFields(schema, depth);
    if (fields.length > 0) return { ...base, kind: 'object', fields };
  }
  return { ...base, kind: 'json' };
}

function baseOf(key: string, schema: unknown, required: boolean): FieldBase {
  const s = isObject(schema) ? schema : {};
  return {
    key,
    label: typeof s['title'] === 'string' && s['title'].trim() !== '' ? s['title'] : key,
    required,
    ...(typeof s['description'] === 'string' ? { description: s['description'] } : {}),
    ...(isJsonValue(s['default']) ? { default: s['default'] } : {}),
  };
}

function scalarSpec(base: FieldBase, schema: SchemaObject): ScalarField | null {
  const options = Array.isArray(schema['enum']) ? schema['enum'] : 'const' in schema ? [schema['const']] : null;
  if (options !== null) return options.length > 0 && options.every(isScalar) ? { ...base, kind: 'enum', options } : null;
  switch (singleType(schema)) {
    case 'string':
      return { ...base, kind: 'text', input: inputOf(schema['format']), minLength: numberAt(schema, 'minLength'), maxLength: numberAt(schema, 'maxLength'), pattern: typeof schema['pattern'] === 'string' ? schema['pattern'] : undefined };
    case 'number':
    case 'integer':
      return {
        ...base,
        kind: 'number',
        integer: singleType(schema) === 'integer',
        minimum: numberAt(schema, 'minimum'),
        maximum: numberAt(schema, 'maximum'),
        exclusiveMinimum: numberAt(schema, 'exclusiveMinimum'),
        exclusiveMaximum: numberAt(schema, 'exclusiveMaximum'),
      };
    case 'boolean':
      return { ...base, kind: 'boolean' };
    default:
      return null;
  }
}

/** The schema's one type; `["string", "null"]` reads as string (an empty field leaves it out). */
function singleType(schema: SchemaObject): string | undefined {
  const t = schema['type'];
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) {
    const named = t.filter((x) => x !== 'null');
    return named.length === 1 && typeof named[0] === 'string' ? named[0] : undefined;
  }
  if (isObject(schema['properties'])) return 'object';
  if (schema['items'] !== undefined) return 'array';
  return undefined;
}

function inputOf(format: unknown): TextInput {
  switch (format) {
    case 'date-time':
      return 'datetime-local';
    case 'date':
      return 'date';
    case 'email':
      return 'email';
    case 'uri':
    case 'url':
      return 'url';
    default:
      return 'text';
  }
}

function numberAt(schema: SchemaObject, key: string): number | undefined {
  const v = schema[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}
