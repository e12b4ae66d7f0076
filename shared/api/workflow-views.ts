// The workspace's workflows as the API serves them: the list (`GET /api/workflows`), one file
// with its diagnostics and stored versions (`GET /api/workflows/:id`), one stored version, run or
// saved (`GET /api/workflows/:id/versions/:version`), one file's text with its findings placed in
// it (`GET /api/workflow-source?file=`), and `POST /api/validate`. Writing files is in
// workflow-files.ts.
import { z } from 'zod';
import { Workflow } from '../definition/workflow-schema.ts';
import { DiagnosticSchema } from './diagnostic-schema.ts';
import { ValidateRequest } from './validate-request.ts';

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

/**
 * A version of a workflow that the store holds: one that ran (its snapshot, immutable), or one
 * saved from the app that has not run. `weft serve` always sends `runCount` and `source`
 * (optional only so that older answers still parse).
 */
export const StoredVersion = z.strictObject({
  version: z.number().int().positive(),
  /** The definition hash: the content without `layout` and `$schema`. */
  definitionHash: z.string(),
  /** When the run snapshot was stored, or for a version that has not run, when it was last saved. */
  savedAtMs: z.number(),
  /** The runs of this version in the store. */
  runCount: z.number().int().nonnegative().optional(),
  /** `run`: a run used it, so it is immutable (saving other content makes a new version); `saved`: never run. */
  source: z.enum(['run', 'saved']).optional(),
});
export type StoredVersion = z.infer<typeof StoredVersion>;

/** The answer of `GET /api/workflows/:id`: the file's definition (null when unreadable), its findings, and the stored versions. */
export const WorkflowDetail = z.strictObject({
  summary: WorkflowSummary,
  definition: Workflow.nullable(),
  diagnostics: z.array(DiagnosticSchema),
  versions: z.array(StoredVersion),
  /** sha256 (hex) of the file's bytes: what the editor sends back as `expectedHash` when it saves. */
  fileHash: z.string().optional(),
});
export type WorkflowDetail = z.infer<typeof WorkflowDetail>;

/** The answer of `GET /api/workflows/:id/versions/:version`. */
export const WorkflowVersionDetail = StoredVersion.extend({ id: z.string(), definition: Workflow });
export type WorkflowVersionDetail = z.infer<typeof WorkflowVersionDetail>;

/** `?file=` of `GET /api/workflow-source`: a workflow file as the list names it, relative to the workspace. */
export const WorkflowSourceQuery = z.strictObject({ file: z.string().min(1).max(1000) });
export type WorkflowSourceQuery = z.infer<typeof WorkflowSourceQuery>;

/** A span of a file's text: offsets (0-based, `end` one past the last character) and the 1-based line and column of its start. */
export const TextSpan = z.strictObject({
  offset: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  line: z.number().int().positive(),
  column: z.number().int().positive(),
});

/** A finding of a file, and where in the text it is: a syntax error's character, a shape error's value; null when it has no place. */
export const SourceFinding = z.strictObject({ diagnostic: DiagnosticSchema, at: TextSpan.nullable() });
export type SourceFinding = z.infer<typeof SourceFinding>;

/**
 * The answer of `GET /api/workflow-source?file=`: the text of a workspace file (readable or not,
 * so the app can show why one does not parse) with each finding placed in it. `text` is null for
 * a file that cannot be read or is over the definition size limit.
 *
 * @example
 * const src = WorkflowSource.parse(answer);
 * for (const f of src.findings) if (f.at) console.log(`${src.file}:${f.at.line}:${f.at.column} ${f.diagnostic.message}`);
 */
export const WorkflowSource = z.strictObject({ file: z.string(), text: z.string().nullable(), findings: z.array(SourceFinding) });
export type WorkflowSource = z.infer<typeof WorkflowSource>;

export { ValidateRequest };

/** The answer of `POST /api/validate`. */
export const ValidateResult = z.strictObject({ valid: z.boolean(), diagnostics: z.array(DiagnosticSchema) });
export type ValidateResult = z.infer<typeof ValidateResult>;
