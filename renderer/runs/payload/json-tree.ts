// The JSON view's tree as rows: a depth-first walk of the value over the nodes that are open,
// one row per node, so the view virtualizes a flat list. A generator, so a value of several
// megabytes is flattened a slice at a time (slice-runner.ts) and never blocks typing. Values the
// server left out (ElidedValue stubs) are replaced by what has been loaded for their path.
import { isElidedValue, type ElidedValue } from '../../../shared/api/elided-value.ts';
import type { JsonValue } from '../../../shared/api/json-value.ts';
import { appendPath } from '../../../shared/api/value-path.ts';
import { isArtifactRef, type ArtifactRefBody } from '../../../shared/artifacts/artifact-ref.ts';

/** What has been fetched for an elided value's path: the value (with deeper stubs) and its entry count. */
export interface LoadedValue {
  value: JsonValue;
  /** Entries of the whole array or object; more than `value` holds while pages remain. */
  total: number | null;
}

export type Loaded = ReadonlyMap<string, LoadedValue>;

export type NodeKind = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';

/** One row: a node of the tree, or the "more entries" row after a partly loaded container. */
export type JsonRow =
  | {
      type: 'node';
      path: string;
      depth: number;
      /** Its key in its parent; null for the root. */
      key: string | number | null;
      kind: NodeKind;
      /** The node as shown: a leaf's value, a container (possibly a loaded page), or a stub. */
      value: JsonValue;
      /** Entries of a container (all of them, loaded or not); null for a leaf. */
      count: number | null;
      open: boolean;
      /** The stub when the value was left out and is not loaded yet. */
      elided: ElidedValue | null;
      /** A value kept by reference in the artifact store (a sensitive one redacted), not opened yet (docs/long-running.md). */
      artifact: ArtifactRefBody | null;
    }
  | { type: 'more'; path: string; depth: number; loaded: number; total: number };

/** The kind of a value. */
export function kindOf(v: JsonValue): NodeKind {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  return 'boolean';
}

/** A node with what was loaded for it put in place: the value to show, where it is, its total. */
export function resolveNode(v: JsonValue, path: string, loaded: Loaded): { value: JsonValue; path: string; total: number | null; elided: ElidedValue | null; artifact?: ArtifactRefBody } {
  if (isArtifactRef(v)) {
    // Opened: what the artifact holds, in its place; else the reference, with an open button.
    const got = loaded.get(path);
    return got === undefined ? { value: v, path, total: null, elided: null, artifact: v.$artifact } : { value: got.value, path, total: got.total ?? entryCount(got.value), elided: null };
  }
  if (!isElidedValue(v)) return { value: v, path, total: entryCount(v), elided: null };
  const got = loaded.get(v.path);
  if (got === undefined) return { value: v, path: v.path, total: v.count, elided: v };
  return { value: got.value, path: v.path, total: got.total ?? entryCount(got.value), elided: null };
}

/** Entries of an array or object; null for a leaf. */
export function entryCount(v: JsonValue): number | null {
  if (v === null || typeof v !== 'object') return null;
  return Array.isArray(v) ? v.length : Object.keys(v).length;
}

/** The entries of a container in order, as [key, value]. */
export function entriesOf(v: JsonValue): [string | number, JsonValue][] {
  if (Array.isArray(v)) return v.map((x, i) => [i, x]);
  if (v !== null && typeof v === 'object') return Object.entries(v);
  return [];
}

interface Pending {
  v: JsonValue;
  path: string;
  depth: number;
  key: string | number | null;
}

/**
 * Rows of the tree in display order: the root, then the entries of every open container.
 *
 * @example
 * [...flattenRows({ a: [1, 2] }, '$', new Set(['$']), new Map())].map((r) => r.path); // ['$', '$.a']
 */
export function* flattenRows(root: JsonValue, rootPath: string, open: ReadonlySet<string>, loaded: Loaded): Generator<JsonRow, void, undefined> {
  const stack: (Pending | JsonRow)[] = [{ v: root, path: rootPath, depth: 0, key: null }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if ('type' in item) {
      yield item;
      continue;
    }
    const node = resolveNode(item.v, item.path, loaded);
    const kind = node.elided === null ? kindOf(node.value) : node.elided.kind;
    const artifact = node.artifact ?? null;
    const container = node.elided === null && artifact === null && (kind === 'object' || kind === 'array');
    const isOpen = container && open.has(node.path);
    yield { type: 'node', path: node.path, depth: item.depth, key: item.key, kind, value: node.value, count: container ? node.total : null, open: isOpen, elided: node.elided, artifact };
    if (!isOpen) continue;
    const v = node.value;
    const depth = item.depth + 1;
    // Pushed last to first, so they pop in order; no entry tuples (this loop runs per row).
    if (Array.isArray(v)) {
      if (node.total !== null && node.total > v.length) stack.push({ type: 'more', path: node.path, depth, loaded: v.length, total: node.total });
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i] ?? null, path: `${node.path}[${i}]`, depth, key: i });
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      if (node.total !== null && node.total > keys.length) stack.push({ type: 'more', path: node.path, depth, loaded: keys.length, total: node.total });
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i] ?? '';
        stack.push({ v: v[k] ?? null, path: appendPath(node.path, k), depth, key: k });
      }
    }
  }
}

/**
 * The paths to open so that "expand all" shows at most `maxRows` rows: containers breadth first,
 * level by level, each one whose entries still fit (a bigger one stays closed).
 *
 * @example
 * expandAllPaths({ a: { b: 1 } }, '$', new Map(), 100); // Set {'$', '$.a'}
 */
export function expandAllPaths(root: JsonValue, rootPath: string, loaded: Loaded, maxRows: number): Set<string> {
  const open = new Set<string>();
  let rows = 1;
  let level: { v: JsonValue; path: string }[] = [{ v: root, path: rootPath }];
  while (level.length > 0) {
    const next: { v: JsonValue; path: string }[] = [];
    for (const { v, path } of level) {
      const node = resolveNode(v, path, loaded);
      if (node.elided !== null || node.artifact !== undefined) continue;
      const entries = entriesOf(node.value);
      if (entries.length === 0) continue;
      // A container too big for what is left stays closed; smaller ones after it may still open.
      if (rows + entries.length > maxRows) continue;
      rows += entries.length;
      open.add(node.path);
      for (const [k, x] of entries) next.push({ v: x, path: appendPath(node.path, k) });
    }
    level = next;
  }
  return open;
}
