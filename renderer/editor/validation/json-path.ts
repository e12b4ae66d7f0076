// Reads back the JSON paths the validator writes (shared/validator/diagnostic.ts formatPath):
// `$.steps[3].config.url` → ['steps', 3, 'config', 'url']. The editor needs the segments to find
// the step or edge a diagnostic is about, and the field inside it.

/** The segments of a JSON path, or null when `path` is not one formatPath could have written. */
export function parseJsonPath(path: string): (string | number)[] | null {
  if (!path.startsWith('$')) return null;
  const out: (string | number)[] = [];
  let i = 1;
  while (i < path.length) {
    const c = path[i];
    if (c === '.') {
      const match = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(path.slice(i + 1));
      if (match === null) return null;
      out.push(match[0]);
      i += 1 + match[0].length;
    } else if (c === '[') {
      const index = /^\[(\d+)\]/.exec(path.slice(i));
      if (index !== null) {
        out.push(Number(index[1]));
        i += index[0].length;
        continue;
      }
      const key = readQuotedKey(path, i + 1);
      if (key === null) return null;
      out.push(key.value);
      i = key.end;
    } else {
      return null;
    }
  }
  return out;
}

/** A `["..."]` key: a JSON string literal followed by `]`. */
function readQuotedKey(path: string, start: number): { value: string; end: number } | null {
  if (path[start] !== '"') return null;
  let i = start + 1;
  while (i < path.length && path[i] !== '"') i += path[i] === '\\' ? 2 : 1;
  if (path[i + 1] !== ']') return null;
  try {
    const value: unknown = JSON.parse(path.slice(start, i + 1));
    return typeof value === 'string' ? { value, end: i + 2 } : null;
  } catch {
    return null;
  }
}

/** Segments as the dotted field name the inspector shows: ['config', 'headers', 0] → `config.headers[0]`. */
export function fieldName(segments: readonly (string | number)[]): string {
  let out = '';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(s)) out += out === '' ? s : `.${s}`;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}
