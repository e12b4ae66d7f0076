// Completion for expression and template fields, as a pure function of (text, cursor, scope):
// which names are in reach depends only on the text before the cursor and on what the
// inspector knows is in scope (the input schema's fields, the steps before this one, run's fields).
import { ACTIVATION, JSONATA_FUNCTIONS } from './jsonata-functions.ts';

export interface ScopeStep {
  id: string;
  kind: string;
  /** Declared output field paths, dotted: `['decision', 'customer', 'customer.name']`. */
  fields: string[];
  /** Finished with an output on every path to the reading step (the validator's guaranteed-before). */
  guaranteed: boolean;
}

export interface CompletionScope {
  /** Field paths of the workflow's input schema, dotted. */
  input: string[];
  steps: ScopeStep[];
  /** Fields of `run`; RUN_FIELDS unless the caller knows better. */
  run: string[];
  /** Fields of `output` where it is in scope: an edge's `when` and a step's `accept`. */
  output?: string[];
}

/** The fields of `run` (docs/definition-format.md, "Expressions and templates"). */
export const RUN_FIELDS: readonly string[] = ['id', 'workflowId', 'version', 'inputRevision', 'startedAt'];

export type CompletionKind = 'variable' | 'property' | 'function' | 'keyword' | 'namespace';

export interface CompletionItem {
  label: string;
  type: CompletionKind;
  detail?: string;
  info?: string;
  /** Text inserted instead of the label (a quoted name). */
  apply?: string;
  /** Higher sorts first among equally good matches. */
  boost?: number;
}

export interface CompletionResult {
  /** Start of the text the chosen item replaces; the end is the cursor. */
  from: number;
  options: CompletionItem[];
}

const NAME_CHAR = /[^\s.,:;()[\]{}"'`+\-*/%&|=<>!?~^$@#]/;
const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const KEYWORDS = ['and', 'or', 'in', 'true', 'false', 'null', 'function'];

/** Completions at `cursor` in a JSONata expression, or null where none apply (in a string, after a computed value, ...). */
export function completeJsonata(text: string, cursor: number, scope: CompletionScope, explicit = false): CompletionResult | null {
  const before = text.slice(0, cursor);
  if (insideLiteral(before)) return null;

  const dollar = /\$[A-Za-z0-9_]*$/.exec(before);
  if (dollar !== null && !before.endsWith('$$')) return { from: cursor - dollar[0].length, options: functionItems() };

  let from = cursor;
  while (from > 0 && NAME_CHAR.test(before[from - 1] ?? '')) from--;
  const chain = pathBefore(before, from);
  if (chain === undefined) return null;
  if (chain.length === 0) {
    if (from === cursor && !explicit) return null;
    return { from, options: topLevelItems(scope, from < cursor) };
  }
  const [root, ...rest] = chain;
  const options = membersOf(root ?? '', rest, scope);
  return options === undefined ? null : { from, options };
}

/** Completions inside a template's `{{ ... }}` placeholder; none in its literal text. */
export function completeTemplate(text: string, cursor: number, scope: CompletionScope, explicit = false): CompletionResult | null {
  const before = text.slice(0, cursor);
  const open = before.lastIndexOf('{{');
  if (open === -1 || before.indexOf('}}', open + 2) !== -1) return null;
  const start = open + 2;
  const inner = completeJsonata(text.slice(start, cursor), cursor - start, scope, explicit);
  return inner === null ? null : { from: inner.from + start, options: inner.options };
}

/** True when `before` ends inside a string, backtick name or comment. */
function insideLiteral(before: string): boolean {
  let quote: string | null = null;
  let comment = false;
  for (let i = 0; i < before.length; i++) {
    const ch = before[i];
    if (comment) {
      if (ch === '*' && before[i + 1] === '/') {
        comment = false;
        i++;
      }
    } else if (quote !== null) {
      if (ch === '\\' && quote !== '`') i++;
      else if (ch === quote) quote = null;
    } else if (ch === '/' && before[i + 1] === '*') {
      comment = true;
      i++;
    } else if (ch === '"' || ch === "'" || ch === '`') {
      quote = ch;
    }
  }
  return quote !== null || comment;
}

/**
 * The names of the path that ends with `.` just before `from`, root first: `steps.a.output.` →
 * ['steps', 'a', 'output']; [] when no path precedes; undefined when the path hangs off something
 * computed (`x[0].`, `$v.`, `f().`), whose fields the scope does not know.
 */
function pathBefore(before: string, from: number): string[] | undefined {
  const names: string[] = [];
  let p = from;
  while (before[p - 1] === '.') {
    p--;
    const segment = segmentEndingAt(before, p);
    // `$$.steps...` is rooted at the context like `steps...` (references.ts reads it the same way).
    if (segment === undefined) return before.slice(0, p).endsWith('$$') ? names : undefined;
    names.unshift(segment.name);
    p = segment.start;
  }
  if (names.length > 0 && /[$\])}"'`]$/.test(before.slice(0, p))) return undefined;
  return names;
}

/** The name (plain or `backticked`) that ends at `end`. */
function segmentEndingAt(before: string, end: number): { name: string; start: number } | undefined {
  if (before[end - 1] === '`') {
    const open = before.lastIndexOf('`', end - 2);
    return open === -1 ? undefined : { name: before.slice(open + 1, end - 1), start: open };
  }
  let start = end;
  while (start > 0 && NAME_CHAR.test(before[start - 1] ?? '')) start--;
  return start === end ? undefined : { name: before.slice(start, end), start };
}

/** Options after `root.rest.`, or undefined where the scope knows nothing. */
function membersOf(root: string, rest: string[], scope: CompletionScope): CompletionItem[] | undefined {
  switch (root) {
    case 'input':
      return fieldItems(scope.input, rest, 'input');
    case 'run':
      return fieldItems(scope.run, rest, 'run');
    case 'output':
      return scope.output === undefined ? undefined : fieldItems(scope.output, rest, 'output');
    case 'steps':
      return stepMembers(rest, scope);
    default:
      return undefined;
  }
}

function stepMembers(rest: string[], scope: CompletionScope): CompletionItem[] | undefined {
  const [id, member, ...path] = rest;
  if (id === undefined) return stepItems(scope.steps);
  const step = scope.steps.find((s) => s.id === id);
  if (step === undefined) return undefined;
  if (member === undefined) return [{ label: 'output', type: 'property', detail: step.kind, info: `the output of ${step.id}` }];
  return member === 'output' ? fieldItems(step.fields, path, `steps.${step.id}.output`) : undefined;
}

function stepItems(steps: ScopeStep[]): CompletionItem[] {
  const ordered = [...steps.filter((s) => s.guaranteed), ...steps.filter((s) => !s.guaranteed)];
  return ordered.map((s) => ({
    label: s.id,
    type: 'variable',
    detail: s.kind,
    info: s.guaranteed
      ? 'finished with an output on every path to here'
      : `may not have run on every path to here: read it behind $exists(steps.${s.id}.output)`,
    boost: s.guaranteed ? 1 : -1,
  }));
}

/** The next names after `prefix` among dotted paths, each once, in the order first seen. */
function fieldItems(paths: readonly string[], prefix: string[], owner: string): CompletionItem[] {
  const seen = new Map<string, boolean>();
  for (const path of paths) {
    const segments = path.split('.');
    if (segments.length <= prefix.length || prefix.some((s, i) => segments[i] !== s)) continue;
    const next = segments[prefix.length] ?? '';
    const deeper = segments.length > prefix.length + 1;
    seen.set(next, (seen.get(next) ?? false) || deeper);
  }
  const where = [owner, ...prefix].join('.');
  return [...seen].map(([name, hasFields]) => ({
    label: name,
    type: 'property',
    detail: hasFields ? 'object' : 'field',
    info: `${where}.${name}`,
    ...(PLAIN_NAME.test(name) ? {} : { apply: `\`${name}\`` }),
  }));
}

function functionItems(): CompletionItem[] {
  return [
    ...JSONATA_FUNCTIONS.map((f): CompletionItem => ({ label: `$${f.name}`, type: 'function', detail: `(${f.params})`, info: f.summary })),
    { label: `$${ACTIVATION.name}`, type: 'variable', detail: 'number', info: ACTIVATION.summary },
  ];
}

function topLevelItems(scope: CompletionScope, typed: boolean): CompletionItem[] {
  const roots: CompletionItem[] = [
    { label: 'input', type: 'namespace', detail: 'run input', boost: 2 },
    { label: 'steps', type: 'namespace', detail: 'finished steps', boost: 2 },
    { label: 'run', type: 'namespace', detail: 'this run', boost: 2 },
  ];
  if (scope.output !== undefined) roots.push({ label: 'output', type: 'namespace', detail: 'this step’s output', boost: 2 });
  return typed ? [...roots, ...KEYWORDS.map((k): CompletionItem => ({ label: k, type: 'keyword' }))] : roots;
}
