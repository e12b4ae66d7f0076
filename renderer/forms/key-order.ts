// A run's definition snapshot comes from the store with its keys sorted (the store keeps the
// canonical JSON it hashes), so an input schema's properties arrive in alphabetical order; the
// workflow file keeps the order its author wrote, which is the order the start form shows. This
// puts a value's keys in the order of a reference value (the file), as far as the reference knows
// them: the dialogs built from the snapshot (revise, fork, skip, resolve) then show their fields
// as the start form does. Only the order changes, never a key or a value.
type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The element of `reference` an array element matches: the one with the same `id`, else the one at the same place. */
function counterpart(item: unknown, index: number, reference: readonly unknown[]): unknown {
  if (isPlain(item) && typeof item['id'] === 'string') return reference.find((r) => isPlain(r) && r['id'] === item['id']);
  return reference[index];
}

/**
 * `value` with every object's keys in `reference`'s order: the keys the reference has first, in
 * its order, then the others in their own order; nested objects and arrays alike (an array's
 * objects with an `id` are matched by it, others by place). Undefined reference: `value` as it is.
 *
 * @example
 * orderKeysLike({ audience: 'a', topic: 't' }, { topic: '', audience: '' }); // { topic: 't', audience: 'a' }
 */
export function orderKeysLike<T>(value: T, reference: unknown): T;
export function orderKeysLike(value: unknown, reference: unknown): unknown {
  if (reference === undefined || reference === null) return value;
  if (Array.isArray(value)) {
    const ref = reference;
    return Array.isArray(ref) ? value.map((item: unknown, i) => orderKeysLike(item, counterpart(item, i, ref))) : value;
  }
  if (!isPlain(value) || !isPlain(reference)) return value;
  const out: Plain = {};
  for (const key of Object.keys(reference)) if (Object.hasOwn(value, key)) out[key] = orderKeysLike(value[key], reference[key]);
  for (const key of Object.keys(value)) if (!Object.hasOwn(out, key)) out[key] = value[key];
  return out;
}
