// What each field mode checks and completes, as plain functions of the text: the one place that
// maps a mode to its lint and completion, for the editor and for tests.
import { completeJsonata, completeTemplate, type CompletionResult, type CompletionScope } from './jsonata-complete.ts';
import { jsonDiagnostics, jsonSchemaDiagnostics } from './json-lint.ts';
import { jsonataDiagnostics, templateDiagnostics, wordRangeAt, type FieldDiagnostic, type FieldSeverity } from './jsonata-lint.ts';

export type CodeFieldMode = 'jsonata' | 'template' | 'json' | 'json-schema';

/** A diagnostic from outside the field (the live validator); without `to`, the word at `from` is marked. */
export interface ExternalDiagnostic {
  from: number;
  to?: number;
  message: string;
  severity: FieldSeverity;
}

export function ownDiagnostics(mode: CodeFieldMode, text: string): FieldDiagnostic[] {
  switch (mode) {
    case 'jsonata':
      return jsonataDiagnostics(text);
    case 'template':
      return templateDiagnostics(text);
    case 'json':
      return jsonDiagnostics(text);
    case 'json-schema':
      return jsonSchemaDiagnostics(text);
  }
}

/**
 * The field's own findings, then the outside ones placed in the current text. While the text has
 * its own errors the outside ones are left out: they were computed for an earlier text, or say the
 * same thing (the validator reports syntax errors too).
 */
export function fieldDiagnostics(mode: CodeFieldMode, text: string, external: readonly ExternalDiagnostic[]): FieldDiagnostic[] {
  const own = ownDiagnostics(mode, text);
  if (own.some((d) => d.severity === 'error')) return own;
  const placed = external.map((d): FieldDiagnostic => {
    const from = Math.max(0, Math.min(d.from, text.length));
    const range = d.to === undefined ? wordRangeAt(text, from) : { from, to: Math.max(from, Math.min(d.to, text.length)) };
    return { ...range, message: d.message, severity: d.severity };
  });
  return [...own, ...placed];
}

export function completeField(mode: CodeFieldMode, text: string, cursor: number, scope: CompletionScope, explicit: boolean): CompletionResult | null {
  if (mode === 'jsonata') return completeJsonata(text, cursor, scope, explicit);
  if (mode === 'template') return completeTemplate(text, cursor, scope, explicit);
  return null;
}
