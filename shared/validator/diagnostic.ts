export type Severity = 'error' | 'warning';

/**
 * One finding about a workflow definition. `code` is stable (tools and docs key on it),
 * `path` is a JSON path into the file such as `$.steps[2].input`, `hint` says how to fix it.
 */
export interface Diagnostic {
  code: string;
  severity: Severity;
  stepId?: string;
  edgeId?: string;
  path: string;
  message: string;
  hint: string;
  /** Line and column (1-based) in the file, where the finding is a text position. */
  line?: number;
  column?: number;
  /** Offset (0-based) inside the JSONata expression at `path`, for expression errors. */
  position?: number;
}

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
