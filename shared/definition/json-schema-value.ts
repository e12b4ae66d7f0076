import { z } from 'zod';

/**
 * A user-supplied JSON Schema (draft 2020-12), kept as plain data. Its own validity is checked by
 * the validator (code `invalid-json-schema`), so a bad schema yields a diagnostic with its path
 * rather than a parse failure of the whole file.
 */
export const JsonSchemaValue = z
  .record(z.string(), z.unknown())
  .describe('A JSON Schema (draft 2020-12) object, for example {"type":"object","properties":{"id":{"type":"string"}}}');
export type JsonSchemaValue = z.infer<typeof JsonSchemaValue>;

/** A JSONata expression, kept as text; its syntax is checked by the validator (`expression-syntax`). */
export const Expression = z
  .string()
  .min(1, 'an expression cannot be empty')
  .describe('A JSONata expression, for example "input.amount > 100"');

/** A text with `{{ expression }}` placeholders, each a JSONata expression. */
export const Template = z
  .string()
  .describe('Text with {{ expression }} placeholders, for example "Review {{ input.title }}"');
