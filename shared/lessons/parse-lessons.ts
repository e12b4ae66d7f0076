// Text → LessonsFile, or diagnostics that say what is wrong and where (line and column, or the
// JSON path of the bad field) and how to fix it. Never throws for user input: the engine reads a
// lessons file with it before it adds a lesson (and refuses to write over a file it cannot read),
// `weft lesson list` and the editor before they show one.
import type { Diagnostic } from '../validator/diagnostic.ts';
import { parseJsonDocument, zodIssuesToDiagnostics, type JsonDocumentKind } from '../validator/parse-definition.ts';
import { LESSONS_FORMAT, LessonsFile } from './lessons-schema.ts';

const LESSONS_DOCUMENT: JsonDocumentKind = {
  starts: `a lessons file is a JSON object starting with {"format": "${LESSONS_FORMAT}", "workflow": …, "lessons": [...]}; see docs/long-running.md`,
  name: 'NAME.lessons.json',
  tooDeep: 'a lessons file never needs this much nesting; check the file',
};

const LESSONS_HINT = 'each lesson has id, failureMode, changed, runId, steps, by and at (docs/long-running.md, "Notes and lessons"); fix the file by hand, or restore it from git';

export type LessonsParse = { ok: true; file: LessonsFile } | { ok: false; diagnostics: Diagnostic[] };

/**
 * Parses and schema-checks a lessons file's text.
 *
 * @example
 * const r = parseLessonsText('{"format": "weft-lessons/v1", "workflow": "quote", "lessons": []}');
 * if (r.ok) r.file.lessons; // []
 */
export function parseLessonsText(text: string): LessonsParse {
  const read = parseJsonDocument(text, LESSONS_DOCUMENT);
  if (!read.ok) return read;
  const parsed = LessonsFile.safeParse(read.data);
  if (parsed.success) return { ok: true, file: parsed.data };
  return { ok: false, diagnostics: zodIssuesToDiagnostics(parsed.error.issues, read.data, LESSONS_HINT).map((d) => ({ ...d, code: d.code === 'schema-violation' ? 'lessons-schema-violation' : d.code })) };
}

/** The first diagnostic as one sentence: where (line and column, else JSON path), what, how to fix. */
export function lessonsProblem(file: string, diagnostics: readonly Diagnostic[]): string {
  const first = diagnostics[0];
  if (first === undefined) return `${file} is not a valid lessons file`;
  // A schema finding's message starts with its JSON path already; a syntax error's place is its line.
  const where = first.line === undefined ? (first.message.startsWith(first.path) ? '' : `${first.path}: `) : first.message.includes(`line ${first.line}`) ? '' : `line ${first.line}, column ${first.column ?? 1}: `;
  const more = diagnostics.length > 1 ? ` (and ${diagnostics.length - 1} more)` : '';
  return `${file}: ${where}${first.message}${more}; ${first.hint}`;
}
