// One line per finding, greppable and stable: `FILE: WHERE: CODE: MESSAGE (HINT)`, where WHERE is
// the step id, `edge ID`, or `workflow`. Shared by every command that reports diagnostics.
import type { Diagnostic } from '../../shared/validator/diagnostic.ts';

/**
 * @example
 * formatDiagnosticLine('a.weft.json', d) // 'a.weft.json: fetch: schema-violation: $.steps[0].kind: … (see docs…)'
 */
export function formatDiagnosticLine(file: string, d: Diagnostic): string {
  const where = d.stepId ?? (d.edgeId === undefined ? 'workflow' : `edge ${d.edgeId}`);
  const warning = d.severity === 'warning' ? ' [warning]' : '';
  return `${file}: ${where}: ${d.code}: ${d.message} (${d.hint})${warning}`;
}

/**
 * @example
 * formatFileSummary('a.weft.json', ds) // 'a.weft.json: valid (2 warnings)' or 'a.weft.json: 3 errors, 1 warning'
 */
export function formatFileSummary(file: string, diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  if (errors === 0) return `${file}: valid${warnings > 0 ? ` (${count(warnings, 'warning')})` : ''}`;
  return `${file}: ${count(errors, 'error')}${warnings > 0 ? `, ${count(warnings, 'warning')}` : ''}`;
}

const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
