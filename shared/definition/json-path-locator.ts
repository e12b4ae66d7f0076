// Where a JSON path (`$.steps[2].config.url`, as diagnostics give it) is in a file's text, so a
// shape error can be shown at its line and column like a syntax error. Runs on text that
// JSON.parse accepted. It walks only along the path, skipping every other value with a flat
// scan, so a large file costs one pass and deep nesting cannot overflow the stack.
import { lineColumn } from './json-error-locator.ts';

/** A span of the text: `offset` where it starts (0-based), `end` one past its last character; line and column (1-based) of its start. */
export interface TextSpan {
  offset: number;
  end: number;
  line: number;
  column: number;
}

/** `$.a[2]["odd key"]` → `['a', 2, 'odd key']`; null when it is not such a path. */
export function parseJsonPath(path: string): (string | number)[] | null {
  if (!path.startsWith('$')) return null;
  const out: (string | number)[] = [];
  const re = /\.([A-Za-z_$][A-Za-z0-9_$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;
  re.lastIndex = 1;
  while (re.lastIndex < path.length) {
    const at = re.lastIndex;
    const m = re.exec(path);
    if (m === null || re.lastIndex === at) return null;
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(Number(m[2]));
    else if (m[3] !== undefined) out.push(String(JSON.parse(m[3])));
  }
  return out;
}

/**
 * The span of the value at `path` in `text`; for a path that goes past what the text holds (a
 * missing key), the opening bracket of the deepest value on the way. Undefined when the path
 * cannot be read or the text is empty.
 *
 * @example
 * locateJsonPath('{"steps":[{"id":"a","kind":"htp"}]}', '$.steps[0].kind'); // { offset: 28, end: 33, line: 1, column: 29 }
 */
export function locateJsonPath(text: string, path: string): TextSpan | undefined {
  const segments = parseJsonPath(path);
  if (segments === null) return undefined;
  let i = skipWs(text, 0);
  if (i >= text.length) return undefined;
  for (const segment of segments) {
    const inner = childStart(text, i, segment);
    // A key the value lacks: its container's first character, not the whole (maybe the whole file).
    if (inner === undefined) return { offset: i, end: i + 1, ...lineColumn(text, i) };
    i = inner;
  }
  return { offset: i, end: skipValue(text, i), ...lineColumn(text, i) };
}

function skipWs(text: string, i: number): number {
  while (i < text.length && ' \t\n\r'.includes(text.charAt(i))) i++;
  return i;
}

/** One past the closing quote of the string starting at `i`. */
function skipString(text: string, i: number): number {
  for (let k = i + 1; k < text.length; k++) {
    const c = text.charAt(k);
    if (c === '\\') k++;
    else if (c === '"') return k + 1;
  }
  return text.length;
}

/** One past the value starting at `i`: containers by counting brackets outside strings. */
function skipValue(text: string, i: number): number {
  const c = text.charAt(i);
  if (c === '"') return skipString(text, i);
  if (c !== '{' && c !== '[') {
    let k = i;
    while (k < text.length && !',]} \t\n\r'.includes(text.charAt(k))) k++;
    return k;
  }
  let depth = 0;
  for (let k = i; k < text.length; k++) {
    const d = text.charAt(k);
    if (d === '"') k = skipString(text, k) - 1;
    else if (d === '{' || d === '[') depth++;
    else if (d === '}' || d === ']') {
      depth--;
      if (depth === 0) return k + 1;
    }
  }
  return text.length;
}

/** Where the child `segment` of the container at `i` starts; undefined when it has none. */
function childStart(text: string, i: number, segment: string | number): number | undefined {
  const open = text.charAt(i);
  if (open === '[' && typeof segment === 'number') {
    let k = skipWs(text, i + 1);
    for (let index = 0; k < text.length && text.charAt(k) !== ']'; index++) {
      if (index === segment) return k;
      k = skipWs(text, skipValue(text, k));
      if (text.charAt(k) === ',') k = skipWs(text, k + 1);
    }
    return undefined;
  }
  if (open === '{' && typeof segment === 'string') {
    let k = skipWs(text, i + 1);
    while (k < text.length && text.charAt(k) === '"') {
      const keyEnd = skipString(text, k);
      const key: unknown = JSON.parse(text.slice(k, keyEnd));
      k = skipWs(text, keyEnd);
      k = skipWs(text, k + 1); // the colon
      if (key === segment) return k;
      k = skipWs(text, skipValue(text, k));
      if (text.charAt(k) === ',') k = skipWs(text, k + 1);
    }
  }
  return undefined;
}

/** The offset of a 1-based line and column (clamped to the text). */
export function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  return Math.min(offset + column - 1, text.length);
}

/**
 * Where a finding is in its file's text: at its line and column (a syntax error: the character
 * there), else at its JSON path (a shape error: the value, or the object missing a key); undefined
 * for a finding about the whole file.
 */
export function locateFinding(text: string, finding: { path: string; line?: number | undefined; column?: number | undefined }): TextSpan | undefined {
  if (finding.line !== undefined && finding.column !== undefined) {
    const offset = offsetOf(text, finding.line, finding.column);
    return { offset, end: Math.min(offset + 1, text.length), line: finding.line, column: finding.column };
  }
  if (finding.path === '' || finding.path === '$') return undefined;
  return locateJsonPath(text, finding.path);
}
