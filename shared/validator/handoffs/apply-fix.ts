// Applies a handoff fix to a workflow document and returns the new document. Only the objects on
// the changed path are copied (the editor's memoized nodes keep their identity elsewhere). The
// result is checked against the definition format, so a fix can never produce a file that fails
// to load.
import { Workflow } from '../../definition/workflow-schema.ts';
import type { DeclareFix, GuardFix, HandoffFix } from './handoff-types.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isWorkflow = (v: unknown): v is Workflow => Workflow.safeParse(v).success;

/**
 * @param site the read's `site` (a JSON path such as `$.steps[3].input`); used by guard fixes.
 * @throws Error when the expression at `site` is no longer the one the fix was made for.
 *
 * @example
 * const read = analyzeHandoffs(wf).steps['report']?.find((r) => r.problem);
 * const fix = read?.fixes[0];
 * if (read && fix) wf = applyHandoffFix(wf, read.site, fix);
 */
export function applyHandoffFix(workflow: Workflow, site: string, fix: HandoffFix): Workflow {
  const next = fix.kind === 'declare' ? declare(workflow, fix) : guard(workflow, site, fix);
  if (!isWorkflow(next)) throw new Error(`the fix "${fix.label}" would not give a valid workflow; edit ${site} by hand`);
  return next;
}

function declare(workflow: Workflow, fix: DeclareFix): unknown {
  if (fix.target.kind === 'input') return { ...workflow, input: withField(workflow.input, fix.names) };
  const id = fix.target.stepId;
  const i = workflow.steps.findIndex((s) => s.id === id);
  if (i < 0) throw new Error(`step "${id}" is gone; the fix "${fix.label}" no longer applies`);
  return updateAt(workflow, ['steps', i, 'output'], (schema) => withField(schema, fix.names));
}

function guard(workflow: Workflow, site: string, fix: GuardFix): unknown {
  return updateAt(workflow, parsePath(site), (text) => {
    if (typeof text !== 'string' || text.slice(fix.offset, fix.offset + fix.before.length) !== fix.before) {
      throw new Error(`the expression at ${site} changed since the fix was offered; select the step again`);
    }
    return `${text.slice(0, fix.offset)}${fix.after}${text.slice(fix.offset + fix.before.length)}`;
  });
}

/**
 * Adds the last of `names` as `{}` (any value) to a JSON Schema, following the others the way
 * the validator walks a schema: through `properties`, array `items` and `additionalProperties`.
 */
export function withField(schema: unknown, names: readonly string[]): Obj {
  const at = (node: unknown, i: number): Obj => {
    const cur: Obj = isObj(node) ? node : {};
    const items = cur['items'];
    if ((cur['type'] === 'array' || cur['properties'] === undefined) && isObj(items)) return { ...cur, items: at(items, i) };
    const name = names[i] ?? '';
    const props = isObj(cur['properties']) ? cur['properties'] : {};
    const typed = cur['type'] === undefined && cur['properties'] === undefined ? { type: 'object' } : {};
    if (i >= names.length - 1) return { ...typed, ...cur, properties: { ...props, [name]: {} } };
    if (Object.hasOwn(props, name)) return { ...cur, properties: { ...props, [name]: at(props[name], i + 1) } };
    if (isObj(cur['additionalProperties'])) return { ...cur, additionalProperties: at(cur['additionalProperties'], i + 1) };
    return { ...typed, ...cur, properties: { ...props, [name]: at({}, i + 1) } };
  };
  return at(schema, 0);
}

/** `$.steps[3].config.headers["X-Key"]` → ['steps', 3, 'config', 'headers', 'X-Key'] (what formatPath writes). */
export function parsePath(path: string): (string | number)[] {
  if (!path.startsWith('$')) throw new Error(`"${path}" is not a JSON path (it should start with $)`);
  const out: (string | number)[] = [];
  const re = /\.([A-Za-z_$][A-Za-z0-9_$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;
  re.lastIndex = 1;
  while (re.lastIndex < path.length) {
    const m = re.exec(path);
    if (m === null) throw new Error(`cannot read the JSON path "${path}" at character ${re.lastIndex}`);
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(Number(m[2]));
    else out.push(String(JSON.parse(m[3] ?? '""')));
  }
  return out;
}

/** A copy of `root` with the value at `path` replaced by `f(old)`; only the objects on the path are new. */
function updateAt(root: unknown, path: readonly (string | number)[], f: (old: unknown) => unknown): unknown {
  const [key, ...rest] = path;
  if (key === undefined) return f(root);
  if (Array.isArray(root) && typeof key === 'number') {
    if (key >= root.length) throw new Error(`nothing at index ${key}; the workflow changed since the fix was offered`);
    const copy: unknown[] = [...root];
    copy[key] = updateAt(root[key], rest, f);
    return copy;
  }
  const obj = isObj(root) ? root : {};
  return { ...obj, [key]: updateAt(obj[key], rest, f) };
}
