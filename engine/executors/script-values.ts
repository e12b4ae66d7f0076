// What a script runner says about values it got from user code: which export to call, what a
// thrown value means as an attempt failure, and what to tell an author whose export is missing.
// Runs inside the runner process; kept apart so it can be tested without one.
import { isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export type ScriptFunction = (input: unknown, context: unknown) => unknown;

export function isScriptFunction(value: unknown): value is ScriptFunction {
  return typeof value === 'function';
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * The named export of a module namespace. A TypeScript/ESM-syntax file that tsx loaded as
 * CommonJS shows up as `{ default: module.exports }` with `__esModule`; its exports are inside.
 */
export function pickExport(namespace: unknown, name: string): unknown {
  if (!isRecord(namespace)) return undefined;
  const direct = namespace[name];
  if (typeof direct === 'function') return direct;
  const inner = namespace['default'];
  if (isRecord(inner) && inner['__esModule'] === true && typeof inner[name] === 'function') return inner[name];
  return direct;
}

function exportNames(namespace: unknown): Map<string, unknown> {
  const names = new Map<string, unknown>();
  if (!isRecord(namespace)) return names;
  const inner = namespace['default'];
  const source = isRecord(inner) && inner['__esModule'] === true ? inner : namespace;
  for (const key of Object.keys(source).sort()) if (key !== '__esModule') names.set(key, source[key]);
  return names;
}

export function describeMissingExport(namespace: unknown, name: string, modulePath: string): string {
  const names = exportNames(namespace);
  const listed = [...names].map(([key, value]) => (typeof value === 'function' ? `${key} (function)` : key));
  const exports = listed.length === 0 ? 'it exports nothing' : `its exports are: ${listed.join(', ')}`;
  if (names.has(name)) {
    return `export "${name}" of ${modulePath} is a ${typeName(names.get(name))}, not a function; ${exports}`;
  }
  const fix = name === 'default' ? 'add "export default function" or set config.export' : 'set config.export to one of them';
  return `${modulePath} has no export named "${name}"; ${exports} (${fix})`;
}

function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/**
 * A thrown value as a failure: `error.code` (a string) is the code, otherwise `script_error`;
 * `retryable: false` on the error is kept; the message has no stack, only the first frame's place.
 */
export function describeThrown(
  error: unknown,
  cwd: string,
  options: { withPlace: boolean } = { withPlace: true },
): { code: string; message: string; retryable?: boolean } {
  const code = isRecord(error) && typeof error['code'] === 'string' && error['code'] !== '' ? error['code'] : 'script_error';
  let message: string;
  if (error instanceof Error) message = error.message || `${error.name} thrown without a message`;
  else if (isRecord(error) && typeof error['message'] === 'string') message = error['message'];
  else if (typeof error === 'string') message = error;
  else message = `a non-error value was thrown: ${safeJson(error)}`;
  const place = options.withPlace ? firstFrame(error, cwd) : undefined;
  const result: { code: string; message: string; retryable?: boolean } = {
    code,
    message: place === undefined ? message : `${message} (at ${place})`,
  };
  if (isRecord(error) && error['retryable'] === false) result.retryable = false;
  return result;
}

/**
 * Whether a module failed to load in a way that loading again cannot fix: a syntax error (from
 * Node, or from tsx's esbuild transform) or a module that cannot be found.
 */
export function isPermanentLoadError(error: unknown): boolean {
  if (error instanceof SyntaxError) return true;
  const code = isRecord(error) ? error['code'] : undefined;
  if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') return true;
  return error instanceof Error && error.message.startsWith('Transform failed');
}

/** A path as the author wrote it: relative to the workflow folder when it is inside it. */
export function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

/** The first stack frame in a file, preferring the workspace's own code over node_modules. */
function firstFrame(error: unknown, cwd: string): string | undefined {
  if (!(error instanceof Error) || typeof error.stack !== 'string') return undefined;
  const places: string[] = [];
  for (const line of error.stack.split('\n')) {
    const m = /^\s+at (?:.*\()?((?:file:\/\/)?\/[^()]*?|[A-Za-z]:\\[^()]*?):(\d+):(\d+)\)?$/.exec(line);
    if (m === null) continue;
    const file = m[1]?.startsWith('file://') ? fileURLToPath(m[1]) : (m[1] ?? '');
    places.push(`${displayPath(file, cwd)}:${m[2]}:${m[3]}`);
  }
  return places.find((p) => !p.includes('node_modules')) ?? places[0];
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
