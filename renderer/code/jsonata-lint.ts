// Errors as you type for expression and template fields: the text is parsed with the same
// `jsonata` parse the validator uses (shared/validator/expressions/expression-cache.ts), so the
// message and place are exactly what `weft validate` will say.
import { ExpressionCache } from '../../shared/validator/expressions/expression-cache.ts';
import { placeholdersOf } from '../../shared/validator/expressions/template.ts';

export type FieldSeverity = 'error' | 'warning' | 'info';

/** A problem in a field's text; offsets are into that text. */
export interface FieldDiagnostic {
  from: number;
  to: number;
  message: string;
  severity: FieldSeverity;
}

const cache = new ExpressionCache();

/**
 * Syntax errors of a JSONata expression. Empty text has none: whether a field may be empty is the
 * form's question, not the parser's.
 */
export function jsonataDiagnostics(text: string): FieldDiagnostic[] {
  if (text.trim() === '') return [];
  return expressionDiagnostics(text, 0);
}

/** Syntax errors of every `{{ expression }}` placeholder of a template, and unclosed `{{`. */
export function templateDiagnostics(text: string): FieldDiagnostic[] {
  const out: FieldDiagnostic[] = [];
  for (const p of placeholdersOf(text)) {
    if (p.expression === '') {
      const from = text.lastIndexOf('{{', p.offset);
      const to = text.indexOf('}}', p.offset) + 2;
      out.push({ from, to, severity: 'error', message: 'this placeholder is empty: put an expression between "{{" and "}}", or remove it' });
    } else {
      out.push(...expressionDiagnostics(p.expression, p.offset));
    }
  }
  const lastOpen = text.lastIndexOf('{{');
  if (lastOpen !== -1 && text.indexOf('}}', lastOpen + 2) === -1) {
    // The engine renders an unclosed `{{` as literal text; that is almost never what was meant.
    out.push({ from: lastOpen, to: lastOpen + 2, severity: 'warning', message: 'this "{{" has no closing "}}", so it is kept as literal text; close it or remove it' });
  }
  return out;
}

function expressionDiagnostics(text: string, offset: number): FieldDiagnostic[] {
  const parsed = cache.parse(text);
  if (parsed.ok) return [];
  const { from, to } = errorRange(text, parsed.position);
  return [{ from: offset + from, to: offset + to, severity: 'error', message: `JSONata: ${parsed.message}` }];
}

/**
 * JSONata reports the offset *after* the offending token (or the end, for "unexpected end"); the
 * underline covers that token: the name, number or symbol that ends there.
 */
export function errorRange(text: string, position: number | undefined): { from: number; to: number } {
  if (position === undefined) return { from: 0, to: text.length };
  const to = Math.max(0, Math.min(position, text.length));
  if (to === 0) return { from: 0, to: Math.min(1, text.length) };
  let from = to;
  while (from > 0 && /[\w$]/.test(text[from - 1] ?? '')) from--;
  if (from === to && !/\s/.test(text[to - 1] ?? '')) from = to - 1;
  return { from, to };
}

/**
 * The range a diagnostic from outside (the live validator) underlines when it gives only one offset:
 * the word touching it, as the validator's positions are JSONata token ends.
 */
export function wordRangeAt(text: string, at: number): { from: number; to: number } {
  const pos = Math.max(0, Math.min(at, text.length));
  let from = pos;
  let to = pos;
  while (from > 0 && /[\w$]/.test(text[from - 1] ?? '')) from--;
  while (to < text.length && /[\w$]/.test(text[to] ?? '')) to++;
  return { from, to };
}
