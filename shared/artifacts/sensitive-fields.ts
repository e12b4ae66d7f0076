// Which fields of a step's output are sensitive: the places its output JSON Schema marks with
// `"x-weft-sensitive": true` (docs/long-running.md). The engine stores a sensitive field's value in
// the artifact store and logs only its reference; the validator checks the marker and the steps
// that read such a field.
//
// A mark applies at its place in the schema: on a property (`properties.card.x-weft-sensitive`),
// on array items (`items`, every item), on `additionalProperties` (every other key), or on the
// whole output (the schema's root). Marks under `allOf`/`anyOf`/`oneOf`/`$ref` are not followed:
// the validator reports them so a mark never silently does nothing.

/** The keyword that marks a place of an output schema as sensitive. */
export const SENSITIVE_MARK = 'x-weft-sensitive';

/** One step of a sensitive path: a property name, `*` for every array item, `**` for every other key of an object. */
export type SensitiveSegment = string | { every: 'item' } | { every: 'key'; except: readonly string[] };

/** The places of a schema marked sensitive, each as its path from the output's root (`[]`: the whole output). */
export function sensitivePaths(schema: unknown): SensitiveSegment[][] {
  const out: SensitiveSegment[][] = [];
  collect(schema, [], out, 0);
  return out;
}

const cached = new WeakMap<object, SensitiveSegment[][]>();

/**
 * sensitivePaths of a schema object, computed once per object: the engine asks for a step's on
 * every attempt, and a step's schema is the same object for every run of its version.
 */
export function sensitivePathsOf(schema: Record<string, unknown>): SensitiveSegment[][] {
  let p = cached.get(schema);
  if (p === undefined) {
    p = sensitivePaths(schema);
    cached.set(schema, p);
  }
  return p;
}

function collect(schema: unknown, at: SensitiveSegment[], out: SensitiveSegment[][], depth: number): void {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema) || depth > 32) return;
  const s = schema as Record<string, unknown>;
  if (s[SENSITIVE_MARK] === true) {
    out.push(at);
    return; // everything under a sensitive place is stored with it
  }
  const props = s['properties'];
  const names: string[] = [];
  if (props !== null && typeof props === 'object' && !Array.isArray(props)) {
    for (const [k, sub] of Object.entries(props)) {
      names.push(k);
      collect(sub, [...at, k], out, depth + 1);
    }
  }
  const extra = s['additionalProperties'];
  if (extra !== null && typeof extra === 'object') collect(extra, [...at, { every: 'key', except: names }], out, depth + 1);
  const items = s['items'];
  if (items !== null && typeof items === 'object' && !Array.isArray(items)) collect(items, [...at, { every: 'item' }], out, depth + 1);
}

/** Whether an output schema marks anything sensitive. */
export function hasSensitiveFields(schema: unknown): boolean {
  return sensitivePaths(schema).length > 0;
}

/**
 * Whether a read of `names` (a property path into the output, as an expression reads
 * `steps.ID.output.a.b`) can reach a sensitive place: the read is at, inside or above one.
 *
 * @example
 * readsSensitive(paths, ['card']);        // true when `card` is marked
 * readsSensitive(paths, []);              // true when anything is marked (the whole output)
 */
export function readsSensitive(paths: readonly SensitiveSegment[][], names: readonly string[]): boolean {
  return paths.some((p) => reaches(p, 0, names, 0));
}

// An expression reads through arrays without naming an index (JSONata maps over them), so an
// every-item segment consumes no name.
function reaches(p: readonly SensitiveSegment[], i: number, names: readonly string[], j: number): boolean {
  if (i === p.length || j === names.length) return true;
  const seg = p[i] as SensitiveSegment;
  const name = names[j] as string;
  if (typeof seg === 'string') return seg === name && reaches(p, i + 1, names, j + 1);
  if (seg.every === 'item') return reaches(p, i + 1, names, j);
  return !seg.except.includes(name) && reaches(p, i + 1, names, j + 1);
}
