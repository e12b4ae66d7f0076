// A validator finding as it crosses the API and as `weft validate --json` prints it. The
// Diagnostic interface in shared/validator/diagnostic.ts should later be z.infer of this.
import { z } from 'zod';

/**
 * One finding: a stable code, severity, where (step, edge, JSON path, line and column) and how to fix it.
 *
 * @example
 * DiagnosticSchema.parse({ code: 'unknown-step', severity: 'error', path: '$.edges[0].to', message: '...', hint: '...' });
 */
export const DiagnosticSchema = z.strictObject({
  code: z.string(),
  severity: z.enum(['error', 'warning']),
  stepId: z.string().optional(),
  edgeId: z.string().optional(),
  path: z.string(),
  message: z.string(),
  hint: z.string(),
  line: z.number().int().positive().optional(),
  column: z.number().int().positive().optional(),
  position: z.number().int().nonnegative().optional(),
});
export type DiagnosticSchema = z.infer<typeof DiagnosticSchema>;

/** One file of `weft validate --json`. */
export const ValidatedFile = z.strictObject({ file: z.string(), valid: z.boolean(), diagnostics: z.array(DiagnosticSchema) });

/** What `weft validate --json` prints. */
export const ValidateJson = z.strictObject({ files: z.array(ValidatedFile) });
