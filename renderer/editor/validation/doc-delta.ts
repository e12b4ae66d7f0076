// Sends the editor's document to the validation worker as a change against the one sent before.
// Copying a 5,000-step document into the worker (structured clone) takes tens of milliseconds on
// the main thread, a dropped frame per keystroke; but edits replace only the objects they change
// (doc-ops keeps the rest by identity), so most of the document can go as "same as before".
// Requests reach the worker in order, so its previous document is always the encoder's.

/** One element of a list: the index of the same object in the previous list, or a new item. */
export type ListEntry = number | { item: unknown };

export type FieldDelta = { key: string; kept: true } | { key: string; value: unknown } | { key: string; list: ListEntry[] };

export interface DocDelta {
  fields: FieldDelta[];
}

/** Top-level arrays sent element by element: they are what grows with the workflow. */
const LISTS = new Set(['steps', 'edges']);

type Fields = Readonly<Record<string, unknown>>;

function encodeList(next: readonly unknown[], previous: unknown): ListEntry[] {
  const before: readonly unknown[] = Array.isArray(previous) ? previous : [];
  let index: Map<unknown, number> | null = null;
  return next.map((item, i) => {
    if (i < before.length && before[i] === item && typeof item === 'object' && item !== null) return i;
    if (typeof item !== 'object' || item === null) return { item };
    // Steps inserted or removed shift the rest: find them by identity.
    index ??= new Map(before.map((x, j) => [x, j]));
    const j = index.get(item);
    return j === undefined ? { item } : j;
  });
}

/** The change from `previous` (the document last sent, or null) to `next`. */
export function encodeDelta(next: Fields, previous: Fields | null): DocDelta {
  const fields: FieldDelta[] = [];
  for (const [key, value] of Object.entries(next)) {
    if (previous !== null && Object.hasOwn(previous, key) && previous[key] === value) fields.push({ key, kept: true });
    else if (LISTS.has(key) && Array.isArray(value) && previous !== null) fields.push({ key, list: encodeList(value, previous[key]) });
    else fields.push({ key, value });
  }
  return { fields };
}

/** The document `delta` describes, given the document it was made against. Throws when that is not `previous`. */
export function applyDelta(delta: DocDelta, previous: Fields | null): Record<string, unknown> {
  // Keys are user text in a shape-invalid document: no prototype, so "__proto__" stays a key.
  const out: Record<string, unknown> = Object.create(null);
  const base = (key: string): unknown => {
    if (previous === null || !Object.hasOwn(previous, key)) throw new Error(`the document change refers to a previous "${key}" the worker does not have`);
    return previous[key];
  };
  for (const field of delta.fields) {
    if ('kept' in field) out[field.key] = base(field.key);
    else if ('value' in field) out[field.key] = field.value;
    else {
      const before = base(field.key);
      const list: readonly unknown[] = Array.isArray(before) ? before : [];
      out[field.key] = field.list.map((entry) => {
        if (typeof entry !== 'number') return entry.item;
        if (entry >= list.length) throw new Error(`the document change refers to ${field.key}[${entry}], past the end of the previous list`);
        return list[entry];
      });
    }
  }
  return out;
}
