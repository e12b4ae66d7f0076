// A run's definition snapshot (keys sorted by the store) shown in the workflow file's order, so the
// revise, fork, skip and resolve forms list fields as the start form does (issue 21, point 7).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { orderKeysLike } from '../../../renderer/forms/key-order.ts';
import { formSpec } from '../../../renderer/forms/form-spec.ts';

const sortKeys = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(sortKeys) : typeof v === 'object' && v !== null ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, sortKeys(x)])) : v;

describe('orderKeysLike', () => {
  it('gives a sorted snapshot of record-update the file’s field order back, changing nothing else', () => {
    const file = JSON.parse(readFileSync('examples/record-update.weft.json', 'utf8')) as { input: unknown; steps: { id: string }[] };
    const snapshot = sortKeys(file) as typeof file;
    expect(formSpec(snapshot.input)?.fields.map((f) => f.key)).toEqual(['apiBase', 'baseRevision', 'field', 'recipient', 'recordId', 'value']);
    const ordered = orderKeysLike(snapshot, file);
    expect(formSpec(ordered.input)?.fields.map((f) => f.key)).toEqual(['apiBase', 'recordId', 'field', 'value', 'baseRevision', 'recipient']);
    expect(JSON.stringify(ordered)).toBe(JSON.stringify(file));
  });

  it('keeps keys the reference does not know after the ones it knows, and matches array items by id', () => {
    expect(Object.keys(orderKeysLike({ b: 1, z: 2, a: 3 }, { a: 0, b: 0 }))).toEqual(['a', 'b', 'z']);
    const steps = orderKeysLike([{ id: 'x', b: 1, a: 2 }, { id: 'y', d: 1, c: 2 }], [{ id: 'y', c: 0, d: 0 }, { id: 'x', a: 0, b: 0 }]);
    expect(steps.map((s) => Object.keys(s))).toEqual([['id', 'a', 'b'], ['id', 'c', 'd']]);
    expect(orderKeysLike({ b: 1, a: 2 }, undefined)).toEqual({ b: 1, a: 2 });
  });
});
