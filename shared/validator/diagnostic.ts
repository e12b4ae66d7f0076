import { z } from 'zod';

export const Severity = z.enum(['error', 'warning']);
export type Severity = z.infer<typeof Severity>;

/**
 * One finding about a workflow definition. `code` is stable (tools and docs key on it),
 * `path` is a JSON path into the file such as `$.steps[2].input`, `hint` says how to fix it.
 */
export const Diagnostic = z.object({
  code: z.string(),
  severity: Severity,
  stepId: z.string().optional(),
  edgeId: z.string().optional(),
  path: z.string(),
  message: z.string(),
  hint: z.string(),
  /** Line and column (1-based) in the file, where the finding is a text position. */
  line: z.number().int().optional(),
  column: z.number().int().optional(),
  /** Offset (0-based) inside the JSONata expression at `path`, for expression errors. */
  position: z.number().int().optional(),
});
export type Diagnostic = z.infer<typeof Diagnostic>;

/** Formats a JSON path from its segments: `['steps', 2, 'input']` → `$.steps[2].input`. */
export function formatPath(segments: readonly PropertyKey[]): string {
  let out = '$';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (typeof s === 'string' && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(s)) out += `.${s}`;
    else out += `[${JSON.stringify(String(s))}]`;
  }
  return out;
}

export const hasErrors = (ds: readonly Diagnostic[]): boolean => ds.some((d) => d.severity === 'error');
