// Where a value of a run is: `run.input`, `steps.fetch.attempts[1].output`,
// `steps.fetch.attempts[1].output.items[3]["a key"]`. A path into the run's RunDetail, except that
// `steps` is addressed by step id (not by position), so a path stays right while a run goes on.
// Segments: `.name` (letters, digits, _, $), `[N]` (an array index, from 0) and `["any key"]` (a
// JSON string). `.N` (digits after a dot) is accepted too and means index N of an array, or key "N"
// of an object, so `steps.fetch.attempts.1.output` works. ElidedValue stubs carry their path, so a
// client rarely builds one; appendPath() extends one by a key or an index.

/** One step of a path: an object key or an array index. */
export type PathSegment = string | number;

/** Longest path accepted in a request. */
export const MAX_VALUE_PATH_LENGTH = 4000;

const NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const NAME_OR_DIGITS = /[A-Za-z0-9_$]/;

/** A path that could not be read: what is wrong, at which character. */
export interface ValuePathError {
  message: string;
  at: number;
}

/**
 * The segments of a value path, or what is wrong with it.
 *
 * @example
 * parseValuePath('steps.fetch.attempts[1].output["a b"]'); // ['steps', 'fetch', 'attempts', 1, 'output', 'a b']
 * parseValuePath('run..input'); // { message: 'expected a name after "." at character 5', at: 4 }
 */
export function parseValuePath(text: string): PathSegment[] | ValuePathError {
  if (text.length === 0) return { message: 'the path is empty; start it with "run" or "steps" (e.g. run.input)', at: 0 };
  if (text.length > MAX_VALUE_PATH_LENGTH) return { message: `the path is over ${MAX_VALUE_PATH_LENGTH} characters`, at: MAX_VALUE_PATH_LENGTH };
  const out: PathSegment[] = [];
  let i = 0;
  const name = (): string => {
    const start = i;
    while (i < text.length && NAME_OR_DIGITS.test(text.charAt(i))) i++;
    return text.slice(start, i);
  };
  const first = name();
  if (first === '') return { message: `expected a name at character 1 (found "${text.charAt(0)}"); start the path with "run" or "steps"`, at: 0 };
  out.push(first);
  while (i < text.length) {
    const c = text.charAt(i);
    if (c === '.') {
      i++;
      const key = name();
      if (key === '') return { message: `expected a name after "." at character ${i + 1}`, at: i };
      out.push(/^\d+$/.test(key) ? Number(key) : key);
    } else if (c === '[') {
      const close = bracket(text, i);
      if (typeof close !== 'number') return close;
      const inner = text.slice(i + 1, close);
      if (/^(0|[1-9]\d{0,8})$/.test(inner)) out.push(Number(inner));
      else if (inner.startsWith('"')) {
        const key = jsonString(inner);
        if (key === undefined) return { message: `${inner.slice(0, 40)} at character ${i + 2} is not a JSON string; quote keys as ["a key"]`, at: i + 1 };
        out.push(key);
      } else return { message: `expected an index or a quoted key inside [] at character ${i + 2} (found "${inner.slice(0, 40)}")`, at: i + 1 };
      i = close + 1;
    } else return { message: `unexpected "${c}" at character ${i + 1}; use .name, [N] or ["key"]`, at: i };
  }
  return out;
}

/** The index of the "]" that closes the "[" at `open`, skipping over a quoted key. */
function bracket(text: string, open: number): number | ValuePathError {
  let inString = false;
  for (let j = open + 1; j < text.length; j++) {
    const c = text.charAt(j);
    if (inString) {
      if (c === '\\') j++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === ']') return j;
  }
  return { message: `the "[" at character ${open + 1} is never closed`, at: open };
}

function jsonString(text: string): string | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** The canonical text of one segment, as it follows a path. */
export function segmentText(segment: PathSegment): string {
  if (typeof segment === 'number') return `[${segment}]`;
  return NAME.test(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`;
}

/**
 * The canonical text of a path (indexes in brackets, odd keys quoted).
 *
 * @example
 * formatValuePath(['steps', 'fetch', 'attempts', 1, 'output']); // 'steps.fetch.attempts[1].output'
 */
export function formatValuePath(segments: readonly PathSegment[]): string {
  const [head, ...rest] = segments;
  if (head === undefined) return '';
  return `${typeof head === 'string' && NAME.test(head) ? head : segmentText(head)}${rest.map(segmentText).join('')}`;
}

/**
 * A path one key or index further in.
 *
 * @example
 * appendPath('run.input', 'items'); // 'run.input.items'
 * appendPath('run.input.items', 3); // 'run.input.items[3]'
 */
export function appendPath(path: string, segment: PathSegment): string {
  return path === '' ? formatValuePath([segment]) : `${path}${segmentText(segment)}`;
}
