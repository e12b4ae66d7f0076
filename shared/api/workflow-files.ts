// Writing the workspace's workflow files from the app: save, create (empty or from a template),
// rename, import, export and delete. Saving writes the canonical text (formatDefinition), so an
// unchanged workflow saves to the same bytes; a version that has run is immutable, so saving
// other content under its number writes the next version and says so (`bumped`).
import { z } from 'zod';
import { MAX_ID_LENGTH, WorkflowId } from './api-ids.ts';
import { DiagnosticSchema } from './diagnostic-schema.ts';
import { JsonValue } from './json-value.ts';
import { Workflow } from '../definition/workflow-schema.ts';
import { WorkflowSummary } from './workflow-views.ts';

/** sha256 of a file's bytes, as 64 lowercase hex digits (WorkflowDetail.fileHash, WorkflowFileResult.hash). */
export const FileHash = z.string().regex(/^[0-9a-f]{64}$/, 'a file hash is 64 hex digits, as WorkflowDetail.fileHash or a save answer gives it');

/**
 * The body of `PUT /api/workflows/:id`. `definition` must have the shape of a workflow (validation
 * errors do not stop a save: the editor saves work in progress) and the route's id. With
 * `expectedHash`, the save is refused (409) when the file on disk is no longer the one loaded.
 *
 * @example
 * SaveWorkflowRequest.parse({ definition: workflow, expectedHash: detail.fileHash });
 */
export const SaveWorkflowRequest = z.strictObject({ definition: JsonValue, expectedHash: FileHash.optional() });
export type SaveWorkflowRequest = z.infer<typeof SaveWorkflowRequest>;

/**
 * The body of `POST /api/workflows`: a new `ID.weft.json` in the workspace folder, from `empty`
 * (the default: a pass-through `start` step leading to an `end` step) or from a template's id (`GET /api/templates`).
 */
export const CreateWorkflowRequest = z.strictObject({
  id: WorkflowId,
  name: z.string().regex(/\S/, 'a name must not be empty or only spaces').max(MAX_ID_LENGTH).optional(),
  from: z.union([z.literal('empty'), WorkflowId]).optional(),
});
export type CreateWorkflowRequest = z.infer<typeof CreateWorkflowRequest>;

/** The body of `POST /api/workflows/:id/rename`: the new id (and file name). */
export const RenameWorkflowRequest = z.strictObject({ to: WorkflowId });
export type RenameWorkflowRequest = z.infer<typeof RenameWorkflowRequest>;

/** The body of `POST /api/workflows/import`: a `.weft.json` file's text; `replace` overwrites the file of a workflow with the same id. */
export const ImportWorkflowRequest = z.strictObject({ text: z.string(), replace: z.boolean().optional() });
export type ImportWorkflowRequest = z.infer<typeof ImportWorkflowRequest>;

/**
 * The answer of every write: the file as now on disk (its summary, definition and findings), its
 * version, whether the version was bumped because the one edited has run, the sha256 of the
 * file's bytes, and `unchanged` when the file already held exactly these bytes (nothing written).
 */
export const WorkflowFileResult = z.strictObject({
  summary: WorkflowSummary,
  definition: Workflow,
  diagnostics: z.array(DiagnosticSchema),
  version: z.number().int().positive(),
  bumped: z.strictObject({ from: z.number().int().positive(), to: z.number().int().positive() }).optional(),
  hash: FileHash,
  unchanged: z.boolean(),
});
export type WorkflowFileResult = z.infer<typeof WorkflowFileResult>;

/** The answer of `DELETE /api/workflows/:id`: the file removed, relative to the workspace. */
export const DeleteWorkflowResult = z.strictObject({ deleted: z.string() });
export type DeleteWorkflowResult = z.infer<typeof DeleteWorkflowResult>;

/** A workflow to start from: one of Weft's examples. */
export const TemplateSummary = z.strictObject({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  stepCount: z.number().int().nonnegative(),
  /** The step kinds it uses, each once, in the order its steps first use them (the new-workflow dialog lists them). */
  kinds: z.array(z.string()).optional(),
});
export type TemplateSummary = z.infer<typeof TemplateSummary>;

/** The answer of `GET /api/templates`. */
export const TemplateList = z.strictObject({ templates: z.array(TemplateSummary) });
export type TemplateList = z.infer<typeof TemplateList>;
