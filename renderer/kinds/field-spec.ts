// What one field of an inspector form is: its path, label and control. Types, choices, bounds,
// required-ness and hints come from the zod schemas (editor/inspector/auto-field.tsx); a spec adds
// only what a schema cannot say: a label, that a string is a template or an expression, that a
// number is a duration, and when a field matters (a model only for a real provider). The config
// fields of each step kind are in kind-views.ts; the fields every step has in
// editor/inspector/field-specs.ts.

export type Widget =
  | 'text'
  | 'mono'
  | 'multiline'
  | 'template'
  | 'template-multiline'
  | 'jsonata'
  | 'jsonata-multiline'
  | 'json'
  | 'json-schema'
  | 'number'
  | 'duration'
  | 'select'
  | 'toggle'
  | 'chips'
  | 'ordered-chips'
  | 'status-chips'
  | 'step-chips'
  | 'kv-text'
  | 'kv-template'
  | 'exit-codes'
  | 'step-select'
  | 'resource';

export interface FieldSpec {
  /** JSON path inside the element: `config.url`, `retry.maxAttempts`. */
  path: string;
  label: string;
  widget?: Widget;
  hint?: string;
  placeholder?: string;
  /** What an unset select means (its empty choice). */
  unset?: string;
  /** Shown only when this holds for the element, or when the field has a value. */
  show?(element: Record<string, unknown>): boolean;
}

/** The element's config as a plain record ({} when it has none). */
const configOf = (e: Record<string, unknown>): Record<string, unknown> => {
  const c = e['config'];
  return typeof c === 'object' && c !== null && !Array.isArray(c) ? Object.fromEntries(Object.entries(c)) : {};
};
/** Shown when the config's `key` is one of `values`. */
export const configIs = (key: string, ...values: string[]) => (e: Record<string, unknown>): boolean => values.includes(String(configOf(e)[key]));
/** Shown when the config has `key` (any value). */
export const configHas = (key: string) => (e: Record<string, unknown>): boolean => configOf(e)[key] !== undefined;
/** Shown when the config's `key` is not `value`. */
export const configIsNot = (key: string, value: string) => (e: Record<string, unknown>): boolean => configOf(e)[key] !== value;
