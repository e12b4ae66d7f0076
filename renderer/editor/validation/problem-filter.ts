// What the Problems panel lists: errors first, narrowed by severity and by words of text.
import type { Diagnostic } from '../../../shared/validator/diagnostic.ts';
import { locateDiagnostic, targetLabel, type DiagnosticLocation, type DocIds } from './diagnostic-target.ts';

export interface ProblemFilter {
  errors: boolean;
  warnings: boolean;
  /** Words that must all appear (any case) in the code, message, hint, target or path. */
  text: string;
}

export const SHOW_ALL: ProblemFilter = { errors: true, warnings: true, text: '' };

export interface ProblemItem {
  diagnostic: Diagnostic;
  location: DiagnosticLocation;
  /** The step or edge id, or "workflow". */
  target: string;
}

export interface SeverityCounts {
  errors: number;
  warnings: number;
}

export function countSeverities(ds: readonly Diagnostic[]): SeverityCounts {
  let errors = 0;
  for (const d of ds) if (d.severity === 'error') errors++;
  return { errors, warnings: ds.length - errors };
}

/** "2 errors, 1 warning" */
export function countLabel({ errors, warnings }: SeverityCounts): string {
  const parts: string[] = [];
  if (errors > 0) parts.push(`${errors} ${errors === 1 ? 'error' : 'errors'}`);
  if (warnings > 0) parts.push(`${warnings} ${warnings === 1 ? 'warning' : 'warnings'}`);
  return parts.length === 0 ? 'no problems' : parts.join(', ');
}

/** The problems to list for `filter`, errors first and otherwise in the validator's order. */
export function filterProblems(ds: readonly Diagnostic[], doc: DocIds | null, filter: ProblemFilter): ProblemItem[] {
  const words = filter.text.toLowerCase().split(/\s+/).filter((w) => w !== '');
  const errors: ProblemItem[] = [];
  const warnings: ProblemItem[] = [];
  for (const diagnostic of ds) {
    const isError = diagnostic.severity === 'error';
    if (isError ? !filter.errors : !filter.warnings) continue;
    const location = locateDiagnostic(diagnostic, doc);
    const target = targetLabel(location.target);
    if (words.length > 0) {
      const haystack = `${diagnostic.code}\n${diagnostic.message}\n${diagnostic.hint}\n${target}\n${diagnostic.path}`.toLowerCase();
      if (!words.every((w) => haystack.includes(w))) continue;
    }
    (isError ? errors : warnings).push({ diagnostic, location, target });
  }
  return [...errors, ...warnings];
}
