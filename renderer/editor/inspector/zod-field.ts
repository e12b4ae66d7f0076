// What a form needs to know about one field of a zod schema: its type, whether it may be left
// out, its choices, bounds and description. Config forms take their selects, hints and number
// bounds from here, so the schema stays the one source of truth.
import { z } from 'zod';
import type { Segment } from './focus-target.ts';

export interface FieldInfo {
  type: 'string' | 'number' | 'boolean' | 'enum' | 'array' | 'record' | 'object' | 'other';
  optional: boolean;
  description: string | undefined;
  options: string[];
  min: number | undefined;
  max: number | undefined;
  integer: boolean;
}

/** The schema inside optional wrappers, and whether there were any. */
type Schema = z.core.$ZodType;

const describe = (schema: Schema): string | undefined => z.globalRegistry.get(schema)?.description;

function unwrap(schema: Schema): { inner: Schema; optional: boolean; description: string | undefined } {
  let inner = schema;
  let optional = false;
  let description = describe(schema);
  while (inner instanceof z.ZodOptional) {
    optional = true;
    inner = inner.unwrap();
    description ??= describe(inner);
  }
  return { inner, optional, description };
}

export function fieldInfo(schema: Schema): FieldInfo {
  const { inner, optional, description } = unwrap(schema);
  const base: FieldInfo = { type: 'other', optional, description, options: [], min: undefined, max: undefined, integer: false };
  if (inner instanceof z.ZodString) return { ...base, type: 'string' };
  if (inner instanceof z.ZodBoolean) return { ...base, type: 'boolean' };
  if (inner instanceof z.ZodEnum) return { ...base, type: 'enum', options: inner.options.map(String) };
  if (inner instanceof z.ZodLiteral) return { ...base, type: 'enum', options: [...inner.values].map(String) };
  if (inner instanceof z.ZodNumber) {
    const min = inner.minValue;
    const max = inner.maxValue;
    return { ...base, type: 'number', integer: inner.isInt, min: min === null || !Number.isFinite(min) ? undefined : min, max: max === null || !Number.isFinite(max) ? undefined : max };
  }
  if (inner instanceof z.ZodArray) return { ...base, type: 'array' };
  if (inner instanceof z.ZodRecord) return { ...base, type: 'record' };
  if (inner instanceof z.ZodObject) return { ...base, type: 'object' };
  return base;
}

/** The schema of the field at `path` inside an object schema (through optional wrappers); null if none. */
export function schemaAt(root: Schema, path: readonly Segment[]): Schema | null {
  let at: Schema = root;
  for (const s of path) {
    const { inner } = unwrap(at);
    if (typeof s === 'number') {
      if (!(inner instanceof z.ZodArray)) return null;
      at = inner.element;
    } else {
      if (!(inner instanceof z.ZodObject)) return null;
      const next: Schema | undefined = inner.shape[s];
      if (next === undefined) return null;
      at = next;
    }
  }
  return at;
}
