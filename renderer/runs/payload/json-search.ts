// Search over the whole value, closed nodes included, in display order: keys and leaf values
// that contain the query (case-insensitive). A generator, run a slice at a time, so matches in a
// value of several megabytes arrive while the user types. Each match carries the paths of its
// ancestors, which the view opens to show it. Stubs not loaded are not searched inside.
import type { JsonValue } from '../../../shared/api/json-value.ts';
import { appendPath } from '../../../shared/api/value-path.ts';
import { resolveNode, type Loaded } from './json-tree.ts';

export interface JsonMatch {
  path: string;
  /** Where the query was found. */
  in: 'key' | 'value';
  /** The containers that hold it, outermost first. */
  ancestors: string[];
}

interface Visit {
  v: JsonValue;
  key: string | number | null;
  parent: Visit | null;
  /** Set for the root and for a loaded stub (its own path); others get theirs on a match only. */
  path: string | null;
}

/** The text a leaf is searched in (and shown as): strings without quotes, others as JSON. */
export function leafText(v: JsonValue): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/**
 * Every node whose key or leaf value contains `query`, in display order.
 *
 * @example
 * [...searchJson({ name: 'Ada', n: 1 }, '$', 'ad', new Map())]; // [{ path: '$.name', in: 'value', ancestors: ['$'] }]
 */
export function* searchJson(root: JsonValue, rootPath: string, query: string, loaded: Loaded): Generator<JsonMatch, void, undefined> {
  if (query === '') return;
  // A case-insensitive pattern tests each text without allocating a lowered copy of it.
  const re = new RegExp(query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
  const stack: Visit[] = [{ v: root, path: rootPath, key: null, parent: null }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    // Paths are built for matches only: most nodes of a large value never need theirs.
    const node = resolveNode(item.v, '', loaded);
    if (node.path !== '') item.path = node.path;
    const v = node.value;
    const keyHit = typeof item.key === 'string' && re.test(item.key);
    const leaf = node.elided === null && (v === null || typeof v !== 'object');
    const valueHit = leaf && re.test(typeof v === 'string' ? v : String(v));
    if (keyHit || valueHit) yield { path: pathOf(item), in: keyHit ? 'key' : 'value', ancestors: ancestorsOf(item) };
    if (node.elided !== null || v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i] ?? null, key: i, parent: item, path: null });
    } else {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i] ?? '';
        stack.push({ v: v[k] ?? null, key: k, parent: item, path: null });
      }
    }
  }
}

/** A visit's path, from its parent's (kept on the visits on the way, for the next match). */
function pathOf(item: Visit): string {
  if (item.path !== null) return item.path;
  const parent = item.parent;
  item.path = parent === null || item.key === null ? '' : appendPath(pathOf(parent), item.key);
  return item.path;
}

function ancestorsOf(item: Visit): string[] {
  const out: string[] = [];
  for (let p = item.parent; p !== null; p = p.parent) out.push(pathOf(p));
  return out.reverse();
}
