// The canonical text of a definition file, as the app saves it: the same workflow always gives the
// same bytes, so saving an unchanged file changes nothing and a git diff shows only what changed.
// - Keys of the workflow, its steps and edges come in a fixed order (the order the examples use:
//   what a reader wants first, id and name, then kind, wiring, contracts, policies). The keys of
//   every other object the format defines (`config`, `retry`, `limits`, a layout position) come
//   in the order of its schema: the app holds definitions as the shared schema parses them, which
//   is that order, so a file saved from the app and the same file formatted here agree. Free-form
//   maps keep the author's order: JSON Schemas, headers, env, mock outputs, concurrency pools.
// - `layout` follows the order of the steps (entries of no step come last, as given), and its
//   positions are rounded to whole pixels: dragging gives fractions that say nothing.
// - 2-space indentation and a trailing newline. A value goes on one line, `{ "a": 1 }` and
//   `["x", "y"]`, when that line (indentation included) stays within LINE_WIDTH; otherwise it is
//   spread, one entry a line. The workflow, its step list, each step, its edge list and its layout
//   are always spread, so adding a field to a step is a one-line diff.
// Other numbers and all strings are written as JSON.stringify writes them.
import { Workflow } from './workflow-schema.ts';

/** The widest line that a value is kept on one line for. */
export const LINE_WIDTH = 120;

const WORKFLOW_KEYS = ['$schema', 'format', 'id', 'version', 'name', 'description', 'input', 'output', 'steps', 'edges', 'limits', 'layout'];
const STEP_KEYS = [
  'id',
  'name',
  'description',
  'kind',
  'input',
  'config',
  'output',
  'accept',
  'effect',
  'idempotencyKey',
  'compensation',
  'resource',
  'timeoutMs',
  'deadlineMs',
  'revalidate',
  'retry',
  'onExhausted',
  'onRevise',
  'optional',
  'readsSensitive',
];
const EDGE_KEYS = ['id', 'from', 'to', 'on', 'when', 'default', 'maxTraversals'];

type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };
type JsonObject = { readonly [key: string]: Json };

/**
 * The canonical file text of a workflow. Idempotent: formatting the parse of its own output gives
 * the same text.
 *
 * @example
 * writeFileSync('order.weft.json', formatDefinition(workflow));
 */
export function formatDefinition(workflow: Workflow): string {
  // The schema's output orders the keys of the objects it defines and keeps free-form maps as
  // given; a value it refuses (a newer format's field) is written as it is.
  const parsed = Workflow.safeParse(workflow);
  return `${write(canonicalWorkflow(parsed.success ? parsed.data : workflow), '', 0, 0, 'spread', true)}\n`;
}

function canonicalWorkflow(workflow: Workflow): JsonObject {
  const w: JsonObject = toJson(workflow);
  const steps = Array.isArray(w['steps']) ? w['steps'] : [];
  const out = ordered(w, WORKFLOW_KEYS);
  return {
    ...out,
    ...(Array.isArray(w['steps']) ? { steps: steps.map((s) => (isObject(s) ? ordered(s, STEP_KEYS) : s)) } : {}),
    ...(Array.isArray(w['edges']) ? { edges: w['edges'].map((e) => (isObject(e) ? ordered(e, EDGE_KEYS) : e)) } : {}),
    ...(isObject(w['layout']) ? { layout: layoutInStepOrder(w['layout'], steps) } : {}),
  };
}

/** A Workflow is plain JSON data; this gives it the JSON type the writer walks. */
function toJson(workflow: Workflow): JsonObject {
  const value: unknown = workflow;
  return isObject(value) ? value : {};
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The known keys in their order, then any others as given (a newer format's fields survive). */
function ordered(o: JsonObject, keys: readonly string[]): JsonObject {
  const entries = Object.entries(o).filter(([, v]) => v !== undefined);
  const rank = (k: string): number => {
    const i = keys.indexOf(k);
    return i < 0 ? keys.length : i;
  };
  // A stable sort: unknown keys keep their order after the known ones.
  return Object.fromEntries(entries.sort(([a], [b]) => rank(a) - rank(b)));
}

function layoutInStepOrder(layout: JsonObject, steps: readonly Json[]): JsonObject {
  const ids = steps.flatMap((s) => (isObject(s) && typeof s['id'] === 'string' ? [s['id']] : []));
  const out: Record<string, Json> = {};
  for (const id of [...ids, ...Object.keys(layout)]) {
    const at = layout[id];
    if (at === undefined || Object.hasOwn(out, id)) continue;
    out[id] = isObject(at) ? roundPosition(at) : at;
  }
  return out;
}

function roundPosition(at: JsonObject): JsonObject {
  const rounded = Object.entries(at).map(([k, v]): [string, Json] => [k, typeof v === 'number' && (k === 'x' || k === 'y') ? Math.round(v) : v]);
  return ordered(Object.fromEntries(rounded), ['x', 'y']);
}

function inline(v: Json): string {
  if (Array.isArray(v)) return v.length === 0 ? '[]' : `[${v.map(inline).join(', ')}]`;
  if (isObject(v)) {
    const entries = Object.entries(v);
    return entries.length === 0 ? '{}' : `{ ${entries.map(([k, x]) => `${JSON.stringify(k)}: ${inline(x)}`).join(', ')} }`;
  }
  return JSON.stringify(v);
}

/** fit: one line when it fits; spread: one entry a line; items: spread, and so is each item. */
type Mode = 'fit' | 'spread' | 'items';

/** The always-spread parts of the workflow object. */
const SPREAD = new Map<string, Mode>([
  ['steps', 'items'],
  ['edges', 'spread'],
  ['layout', 'spread'],
]);

/**
 * `lead` is what precedes the value on its line after the indentation (`"key": `), `trail` what
 * follows it (a comma): both count towards the line's width.
 */
function write(v: Json, indent: string, lead: number, trail: number, mode: Mode, top = false): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  const one = inline(v);
  if (mode === 'fit' && indent.length + lead + one.length + trail <= LINE_WIDTH) return one;
  const inner = `${indent}  `;
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    const lines = v.map((x, i) => inner + write(x, inner, 0, i < v.length - 1 ? 1 : 0, mode === 'items' ? 'spread' : 'fit'));
    return `[\n${lines.join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(v);
  if (entries.length === 0) return '{}';
  const lines = entries.map(([k, x], i) => {
    const key = `${JSON.stringify(k)}: `;
    return inner + key + write(x, inner, key.length, i < entries.length - 1 ? 1 : 0, top ? (SPREAD.get(k) ?? 'fit') : 'fit');
  });
  return `{\n${lines.join(',\n')}\n${indent}}`;
}
