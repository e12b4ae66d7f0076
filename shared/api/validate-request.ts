// The request of `POST /api/validate`, apart from the other workflow views (workflow-views.ts
// re-exports it): the service parses it, and importing workflow-views.ts for it built the schemas
// of every workflow view (and the workflow's own) whenever a `weft` command opened a store (issue
// 20, step 9).
import { z } from 'zod';
import { JsonValue } from './json-value.ts';

/**
 * The body of `POST /api/validate`: a definition as file text (findings then carry line and
 * column) or as a parsed value (what the editor holds).
 */
export const ValidateRequest = z
  .strictObject({ text: z.string().optional(), definition: JsonValue.optional() })
  .refine((r) => (r.text === undefined) !== (r.definition === undefined), 'give either "text" (the file\'s text) or "definition" (its parsed value), not both');
export type ValidateRequest = z.infer<typeof ValidateRequest>;
