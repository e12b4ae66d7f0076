// Errors as you type for JSON fields, and for JSON Schema fields the project's own schema check
// (shared/validator/schema/json-schema-check.ts), so the editor says what `weft validate` says.
import { JsonSchemaChecker } from '../../shared/validator/schema/json-schema-check.ts';
import type { FieldDiagnostic } from './jsonata-lint.ts';
import { firstSyntaxErrorAt, parseJsonTree, pointerRange, propertyNameRange } from './json-pointer-range.ts';

const checker = new JsonSchemaChecker();

/** 1-based line and column of an offset, for messages. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** Engines word JSON.parse errors differently; keep the reason, place it ourselves. */
function reasonOf(message: string): string {
  return message
    .replace(/\s+in JSON at position \d+.*$/s, '')
    .replace(/\s+at position \d+.*$/s, '')
    .replace(/, (?:\.\.\.)?".*" is not valid JSON$/s, '')
    .replace(/'\n'/g, 'line break');
}

type Parsed = { ok: true; value: unknown } | { ok: false; diagnostic: FieldDiagnostic };

function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const stated = /position (\d+)/.exec(message);
    const at = Math.min(text.length, stated ? Number(stated[1]) : (firstSyntaxErrorAt(parseJsonTree(text)) ?? text.length));
    const { line, column } = lineColumn(text, at);
    return {
      ok: false,
      diagnostic: { from: at, to: Math.min(at + 1, text.length), severity: 'error', message: `JSON syntax error at line ${line}, column ${column}: ${reasonOf(message)}` },
    };
  }
}

/** Syntax errors of a JSON field. Empty text has none (an unset field). */
export function jsonDiagnostics(text: string): FieldDiagnostic[] {
  if (text.trim() === '') return [];
  const parsed = parseJson(text);
  return parsed.ok ? [] : [parsed.diagnostic];
}

/** Syntax errors, then the JSON Schema (2020-12) check of the validator, placed at the keyword at fault. */
export function jsonSchemaDiagnostics(text: string): FieldDiagnostic[] {
  if (text.trim() === '') return [];
  const parsed = parseJson(text);
  if (!parsed.ok) return [parsed.diagnostic];
  if (typeof parsed.value !== 'object' && typeof parsed.value !== 'boolean') {
    return [{ from: 0, to: text.length, severity: 'error', message: 'a JSON Schema is an object (such as {"type": "object", "properties": {}}) or true/false' }];
  }
  let problems;
  try {
    problems = checker.check(parsed.value);
  } catch {
    // ajv compiles schemas to functions; a page whose Content-Security-Policy forbids eval refuses
    // that. Say so instead of pretending the schema is fine.
    return [{ from: 0, to: 0, severity: 'info', message: 'the JSON Schema check cannot run on this page (its security policy forbids compiling schemas); `weft validate` checks it' }];
  }
  if (problems.length === 0) return [];
  const tree = parseJsonTree(text);
  return problems.map((p) => {
    const unknown = /unknown keyword: "([^"]*)"/.exec(p.message);
    const range = (unknown ? propertyNameRange(text, unknown[1] ?? '', tree) : undefined) ?? pointerRange(text, p.pointer, tree) ?? { from: 0, to: text.length };
    const where = p.pointer === '' ? '' : ` at ${p.pointer}`;
    return { ...range, severity: 'error', message: `JSON Schema${where}: ${p.message}` };
  });
}
