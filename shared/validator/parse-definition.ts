// Text → Workflow, or diagnostics that say what is wrong and where. Never throws for user input.
import type { z } from 'zod';
import { formatPath, type Diagnostic } from './diagnostic.ts';
import { lineColumn, locateJsonError } from '../definition/json-error-locator.ts';
import { Workflow } from '../definition/workflow-schema.ts';

/** Deeper nesting than this is refused before any recursive walk can meet it. */
export const MAX_NESTING = 64;

export type ParseResult = { ok: true; workflow: Workflow } | { ok: false; diagnostics: Diagnostic[] };

const FORMAT_HINT = 'see docs/definition-format.md for every field, with examples';

/**
 * Parses and schema-checks a definition file's text.
 *
 * @example
 * const r = parseDefinitionText('{"format":"weft/v1", ...}');
 * if (!r.ok) for (const d of r.diagnostics) console.log(d.path, d.message);
 */
export function parseDefinitionText(text: string): ParseResult {
  const read = parseJsonDocument(text, DEFINITION_DOCUMENT);
  if (!read.ok) return read;
  const parsed = Workflow.safeParse(read.data);
  if (parsed.success) return { ok: true, workflow: parsed.data };
  return { ok: false, diagnostics: zodIssuesToDiagnostics(parsed.error.issues, read.data, FORMAT_HINT) };
}

/** What the text checks say about the kind of file they read. */
export interface JsonDocumentKind {
  /** How such a file starts, for an empty file: `{"format": "weft/v1", ...}`. */
  starts: string;
  /** What it is called, for a binary file: `a .weft.json file`. */
  name: string;
  /** Where a value that nests too deep belongs instead. */
  tooDeep: string;
}

const DEFINITION_DOCUMENT: JsonDocumentKind = {
  starts: 'a workflow file is a JSON object starting with {"format": "weft/v1", ...}; see examples/',
  name: 'a .weft.json file',
  tooDeep: 'a workflow never needs this much nesting; flatten the value or move it into the run input',
};

/**
 * The checks every JSON file of a workspace gets before its schema: not empty, text, JSON, and
 * not nested too deep. Diagnostics say where (line and column, or the JSON path) and what to do.
 *
 * @example
 * const r = parseJsonDocument(text, POLICY_DOCUMENT); // then r.ok ? Schema.safeParse(r.data) : r.diagnostics
 */
export function parseJsonDocument(text: string, kind: JsonDocumentKind): { ok: true; data: unknown } | { ok: false; diagnostics: Diagnostic[] } {
  if (text.trim() === '') {
    return fail({ code: 'empty-file', path: '$', message: 'the file is empty', hint: kind.starts });
  }
  const nul = text.indexOf('\u0000');
  if (nul >= 0) {
    return fail({
      code: 'not-text',
      path: '$',
      message: `the file contains a NUL byte at offset ${nul}: it is binary, not a JSON text`,
      hint: `open ${kind.name} saved as UTF-8 text`,
      ...lineColumn(text, nul),
    });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    const located = locateJsonError(text);
    const offset = located?.offset ?? 0;
    const { line, column } = lineColumn(text, offset);
    return fail({
      code: 'not-json',
      path: '$',
      message: `not valid JSON at line ${line}, column ${column}: ${located?.message ?? (e as Error).message}`,
      hint: 'fix the JSON syntax there; comments and trailing commas are not allowed in JSON',
      line,
      column,
    });
  }
  const deep = findTooDeep(data);
  if (deep) {
    return fail({
      code: 'too-deep',
      path: formatPath(deep),
      message: `the JSON nests deeper than ${MAX_NESTING} levels at ${shorten(formatPath(deep))}`,
      hint: kind.tooDeep,
    });
  }
  return { ok: true, data };
}

const shorten = (p: string): string => (p.length > 60 ? `${p.slice(0, 40)}…${p.slice(-16)}` : p);

function fail(d: Omit<Diagnostic, 'severity'>): { ok: false; diagnostics: Diagnostic[] } {
  return { ok: false, diagnostics: [{ severity: 'error', ...d }] };
}

/**
 * Iterative depth check: returns the path of the first value nested deeper than MAX_NESTING.
 * Paths are rebuilt from parent links only when one is found, so a large file costs little.
 */
function findTooDeep(root: unknown): PropertyKey[] | undefined {
  const t: DepthWalk = { values: [root], depths: [0], parents: [-1], keys: [''] };
  const stack: number[] = [0];
  while (stack.length > 0) {
    const at = stack.pop() as number;
    const value = t.values[at];
    if (value === null || typeof value !== 'object') continue;
    const depth = t.depths[at] as number;
    if (depth >= MAX_NESTING) {
      const path: PropertyKey[] = [];
      for (let k = at; k > 0; k = t.parents[k] as number) path.push(t.keys[k] as PropertyKey);
      return path.reverse();
    }
    if (Array.isArray(value)) {
      for (let k = 0; k < value.length; k++) pushChild(t, stack, value[k], k, at, depth);
    } else {
      for (const key in value) pushChild(t, stack, (value as Record<string, unknown>)[key], key, at, depth);
    }
  }
  return undefined;
}

interface DepthWalk {
  values: unknown[];
  depths: number[];
  parents: number[];
  keys: PropertyKey[];
}

function pushChild(t: DepthWalk, stack: number[], v: unknown, key: PropertyKey, parent: number, depth: number): void {
  if (v === null || typeof v !== 'object') return;
  t.values.push(v);
  t.depths.push(depth + 1);
  t.parents.push(parent);
  t.keys.push(key);
  stack.push(t.values.length - 1);
}

/** Schema issues as diagnostics: the JSON path, the most telling branch of a union, the step it is in. */
export function zodIssuesToDiagnostics(issues: readonly z.core.$ZodIssue[], data: unknown, hint: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const issue of issues) {
    const picked = pickUnionBranch(issue);
    const path = [...issue.path, ...(picked === issue ? [] : picked.path)];
    const stepId = stepIdAt(data, path);
    out.push({
      code: 'schema-violation',
      severity: 'error',
      ...(stepId === undefined ? {} : { stepId }),
      path: formatPath(path),
      message: `${formatPath(path)}: ${describeIssue(picked)}`,
      hint,
    });
  }
  return out;
}

/** A union failure lists every branch's issues; report the most telling one. */
function pickUnionBranch(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return issue;
  const branches = issue.errors.filter((b) => b.length > 0);
  const notTypeMismatch = branches.find((b) => !b.every((i) => i.code === 'invalid_type' && i.path.length === 0));
  const first = (notTypeMismatch ?? branches[0])?.[0];
  return first ? pickUnionBranch(first) : issue;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    return `unknown ${issue.keys.length === 1 ? 'key' : 'keys'} ${issue.keys.map((k) => `"${k}"`).join(', ')} (check the spelling)`;
  }
  return issue.message.replace(/^Invalid input: /, '');
}

function stepIdAt(data: unknown, path: readonly PropertyKey[]): string | undefined {
  if (path[0] !== 'steps' || typeof path[1] !== 'number') return undefined;
  const steps = (data as { steps?: unknown }).steps;
  if (!Array.isArray(steps)) return undefined;
  const step: unknown = steps[path[1]];
  if (step && typeof step === 'object' && typeof (step as { id?: unknown }).id === 'string') {
    return (step as { id: string }).id;
  }
  return undefined;
}
