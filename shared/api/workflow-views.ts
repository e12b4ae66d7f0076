// The workspace's workflows as the API serves them: the list (`GET /api/workflows`), one file
// with its diagnostics and stored versions (`GET /api/workflows/:id`), one stored version
// (`GET /api/workflows/:id/versions/:version`), and `POST /api/validate`.
import { z } from 'zod';
import { Workflow } from '../definition/workflow-schema.ts';
import { DiagnosticSchema } from './diagnostic-schema.ts';
import { JsonValue } from './json-value.ts';

/**
 * One workflow file of the workspace. A file that is not a readable workflow still appears,
 * with null id, version and name and its errors counted, so the app can show it and why.
 *
 * @example
 * WorkflowSummary.parse({ id: 'trip-saga', file: 'trip-saga.weft.json', version: 1, name: 'Trip saga', stepCount: 9, errors: 0, warnings: 1 });
 */
export const WorkflowSummary = z.strictObject({
  id: z.string().nullable(),
  /** Relative to the workspace folder. */
  file: z.string(),
  version: z.number().int().positive().nullable(),
  name: z.string().nullable(),
  stepCount: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
  warnings: z.number().int().nonnegative(),
});
export type WorkflowSummary = z.infer<typeof WorkflowSummary>;

/** The answer of `GET /api/workflows`. */
export const WorkflowList = z.strictObject({ workflows: z.array(WorkflowSummary) });
export type WorkflowList = z.infer<typeof WorkflowList>;

/** A version of a workflow that the store holds a snapshot of (it has run). */
export const StoredVersion = z.strictObject({ version: z.number().int().positive(), definitionHash: z.string(), savedAtMs: z.number() });

/** The answer of `GET /api/workflows/:id`: the file's definition (null when unreadable), its findings, and the stored versions. */
export const WorkflowDetail = z.strictObject({
  summary: WorkflowSummary,
  definition: Workflow.nullable(),
  diagnostics: z.array(DiagnosticSchema),
  versions: z.array(StoredVersion),
});
export type WorkflowDetail = z.infer<typeof WorkflowDetail>;

/** The answer of `GET /api/workflows/:id/versions/:version`. */
export const WorkflowVersionDetail = StoredVersion.extend({ id: z.string(), definition: Workflow });
export type WorkflowVersionDetail = z.infer<typeof WorkflowVersionDetail>;

/**
 * The body of `POST /api/validate`: a definition as file text (findings then carry line and
 * column) or as a parsed value (what the editor holds).
 */
export const ValidateRequest = z
  .strictObject({ text: z.string().optional(), definition: JsonValue.optional() })
  .refine((r) => (r.text === undefined) !== (r.definition === undefined), 'give either "text" (the file\'s text) or "definition" (its parsed value), not both');
export type ValidateRequest = z.infer<typeof ValidateRequest>;

/** The answer of `POST /api/validate`. */
export const ValidateResult = z.strictObject({ valid: z.boolean(), diagnostics: z.array(DiagnosticSchema) });
export type ValidateResult = z.infer<typeof ValidateResult>;
