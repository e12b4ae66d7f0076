// Evaluating definition expressions at run time: compiled once per text, evaluated against the
// run context {input, steps, run} (plus `output` in conditions and acceptance rules), with
// `$activation` bound to the activation number of the step that evaluates it.
import jsonata from 'jsonata';
import { ACTIVATION_VARIABLE, activationReads } from '../../shared/validator/expressions/activation.ts';
import { placeholdersOf } from '../../shared/validator/expressions/template.ts';
import type { AstNode } from '../../shared/validator/expressions/jsonata-ast.ts';
import { referencesOf } from '../../shared/validator/expressions/references.ts';
import type { Step } from '../../shared/definition/workflow-schema.ts';

type Compiled = ReturnType<typeof jsonata>;

/**
 * Where a run context carries the activation number that `$activation` reads. A symbol, so that
 * no expression sees it as a field and no JSON copy of the context keeps it.
 */
export const ACTIVATION = Symbol('activation');
export type RunContext = Record<string, unknown> & { [ACTIVATION]?: number };
const compiled = new Map<string, Compiled>();

export class ExpressionError extends Error {
  constructor(readonly expression: string, message: string) {
    super(message);
    this.name = 'ExpressionError';
  }
}

function compile(text: string): Compiled {
  let c = compiled.get(text);
  if (c === undefined) {
    try {
      c = jsonata(text);
    } catch (e) {
      throw new ExpressionError(text, `cannot parse "${text}": ${(e as Error).message}`);
    }
    compiled.set(text, c);
  }
  return c;
}

const SIMPLE_PATH = /^\s*[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*\s*$/;
const simplePaths = new Map<string, string[] | null>();

/**
 * `input.order.id`-style paths are most of what definitions say; they are read directly when every
 * value on the way is a plain object (anything else, such as an array JSONata would map over,
 * goes to JSONata itself, so the result is always JSONata's).
 */
function readSimplePath(text: string, context: Record<string, unknown>): { hit: boolean; value?: unknown } {
  let names = simplePaths.get(text);
  if (names === undefined) {
    names = SIMPLE_PATH.test(text) && !/\b(and|or|in|true|false|null)\b/.test(text) ? text.trim().split('.') : null;
    simplePaths.set(text, names);
  }
  if (names === null) return { hit: false };
  let cur: unknown = context;
  for (const name of names) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return { hit: false };
    cur = (cur as Record<string, unknown>)[name];
    if (cur === undefined) return { hit: true, value: undefined };
  }
  return Array.isArray(cur) ? { hit: false } : { hit: true, value: cur };
}

/**
 * Evaluates `text` against `context`. `extra` binds more variables (a revalidate check's `$now`,
 * `$millis`, `$waitedMs`, `$trigger`), replacing JSONata's own of the same name.
 *
 * @example await evaluate('$waitedMs < 3600000', ctx, { waitedMs: 60_000 }) // true
 */
export async function evaluate(text: string, context: RunContext, extra?: Record<string, unknown>): Promise<unknown> {
  const direct = readSimplePath(text, context);
  if (direct.hit) return direct.value; // values in the context are plain JSON already
  // Bindings cost JSONata a new frame per call: bind only for the texts that name the variable.
  const activation = context[ACTIVATION];
  const own = activation === undefined || !text.includes(`$${ACTIVATION_VARIABLE}`) ? undefined : { [ACTIVATION_VARIABLE]: activation };
  const bindings = extra === undefined ? own : { ...extra, ...own };
  try {
    const v: unknown = await compile(text).evaluate(context, bindings);
    return normalise(v);
  } catch (e) {
    if (e instanceof ExpressionError) throw e;
    throw new ExpressionError(text, `"${text}" failed: ${(e as Error).message}`);
  }
}

/** Renders `{{ expression }}` placeholders; objects are inserted as JSON. */
export async function renderTemplate(template: string, context: RunContext): Promise<string> {
  const parts = placeholdersOf(template);
  if (parts.length === 0) return template;
  let out = '';
  let last = 0;
  const re = /\{\{([\s\S]*?)\}\}/g;
  for (let m = re.exec(template), k = 0; m !== null; m = re.exec(template), k++) {
    out += template.slice(last, m.index);
    const v = await evaluate(parts[k]?.expression ?? '', context);
    out += v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v);
    last = m.index + m[0].length;
  }
  return out + template.slice(last);
}

/** JSONata results can carry sequence flags and undefined; make them plain JSON values. */
function normalise(v: unknown): unknown {
  if (v === undefined) return undefined;
  return JSON.parse(JSON.stringify(v)) as unknown;
}

const readsCache = new WeakMap<Step, string[]>();
const activationCache = new WeakMap<Step, boolean>();
const inputPathsCache = new WeakMap<Step, string[][] | null>();

/**
 * The run-input paths a transform's expression reads (`input.a.b` → ['a','b']), or null when it
 * reads the whole input. A transform's evidence covers exactly these values, so a revision that
 * changes other input fields leaves it valid.
 */
export function transformInputPaths(step: Step): string[][] | null {
  if (inputPathsCache.has(step)) return inputPathsCache.get(step) ?? null;
  let paths: string[][] | null = [];
  const text = step.kind === 'transform' ? step.config.expression : undefined;
  try {
    for (const r of text === undefined ? [] : referencesOf(jsonata(text).ast() as AstNode)) {
      if (r.root !== 'input') continue;
      if (r.names.length === 0) {
        paths = null;
        break;
      }
      paths.push(r.names);
    }
  } catch {
    paths = null;
  }
  inputPathsCache.set(step, paths);
  return paths;
}

/** The parts of `input` at `paths`, as one object (arrays and scalars are taken whole). */
export function projectInput(input: unknown, paths: readonly string[][]): unknown {
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    let src: unknown = input;
    let dst = out;
    for (let i = 0; i < path.length; i++) {
      const key = path[i] as string;
      const v: unknown = src !== null && typeof src === 'object' && !Array.isArray(src) ? (src as Record<string, unknown>)[key] : undefined;
      if (i === path.length - 1 || v === null || typeof v !== 'object' || Array.isArray(v)) {
        dst[key] = v ?? null;
        break;
      }
      const next = (dst[key] ??= {}) as Record<string, unknown>;
      dst = next;
      src = v;
    }
  }
  return out;
}

/**
 * Steps whose outputs a step's expressions read (besides its `input`): they are part of what the
 * step's evidence covers, so a changed upstream output invalidates it.
 */
export function stepReads(step: Step): string[] {
  const hit = readsCache.get(step);
  if (hit) return hit;
  const ids = new Set<string>();
  for (const t of expressionTexts(step)) {
    try {
      for (const r of referencesOf(jsonata(t).ast() as AstNode)) if (r.root === 'steps' && r.names[0]) ids.add(r.names[0]);
    } catch {
      // a syntax error is the validator's to report
    }
  }
  // A received handoff is a read of the giving step's output (handoff-input.ts).
  if (step.handoffFrom !== undefined) ids.add(step.handoffFrom);
  const out = [...ids].sort();
  readsCache.set(step, out);
  return out;
}

/**
 * Whether a step's expressions read `$activation`: then its evidence covers the activation
 * number too, since the same input gives another result in another pass.
 */
export function stepReadsActivation(step: Step): boolean {
  let hit = activationCache.get(step);
  if (hit === undefined) {
    hit = expressionTexts(step).some((t) => {
      try {
        return t.includes('$activation') && activationReads(jsonata(t).ast() as AstNode).length > 0;
      } catch {
        return false;
      }
    });
    activationCache.set(step, hit);
  }
  return hit;
}

/** The texts of a step's expressions and template placeholders (its `accept` aside). */
function expressionTexts(step: Step): string[] {
  const texts: string[] = [];
  const add = (t: unknown): void => {
    if (typeof t === 'string') texts.push(t);
  };
  add(step.input);
  add(step.idempotencyKey);
  // Expressions sit in known config keys; templates anywhere in config (headers included).
  const walk = (v: unknown, key: string): void => {
    if (typeof v === 'string') {
      if (['expression', 'items', 'correlationKey', 'until', 'body'].includes(key)) add(v);
      else for (const p of placeholdersOf(v)) add(p.expression);
    } else if (Array.isArray(v)) v.forEach((x) => walk(x, ''));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  walk((step as { config?: Record<string, unknown> }).config ?? {}, '');
  return texts;
}

/** The `expressions` of an executor's AttemptContext, over a fixed context (tests, tools). */
export function expressionsOver(context: RunContext): { render(t: string): Promise<string>; evaluate(e: string): Promise<unknown> } {
  return { render: (t) => renderTemplate(t, context), evaluate: (e) => evaluate(e, context) };
}
