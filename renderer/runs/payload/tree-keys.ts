// What a key does in the JSON view's tree, as a tree view's keys do: Up and Down move, Right
// opens a container or goes into it, Left closes it or goes to its parent, Home and End go to
// the ends, Enter loads a left-out value (or the next page) or opens and closes a container.
// Pure, over the flattened rows, so the view only carries the action out.
import type { ElidedValue } from '../../../shared/api/elided-value.ts';
import type { JsonRow } from './json-tree.ts';

export type TreeKeyAction =
  | { type: 'move'; to: number }
  | { type: 'toggle'; path: string }
  | { type: 'load'; stub: ElidedValue }
  | { type: 'more'; path: string; loaded: number };

/**
 * The action of `key` on the row at `active`; null for a key the tree does not take.
 *
 * @example
 * treeKeyAction('ArrowLeft', rows, 5); // { type: 'move', to: 2 }: row 5's parent
 */
export function treeKeyAction(key: string, rows: readonly JsonRow[], active: number): TreeKeyAction | null {
  const r = rows[active];
  const last = Math.max(0, rows.length - 1);
  const move = (to: number): TreeKeyAction => ({ type: 'move', to: Math.max(0, Math.min(last, to)) });
  if (key === 'ArrowDown') return move(active + 1);
  if (key === 'ArrowUp') return move(active - 1);
  if (key === 'Home') return move(0);
  if (key === 'End') return move(last);
  if (r === undefined) return null;
  const container = r.type === 'node' && r.count !== null;
  const open = r.type === 'node' && r.open;
  if (key === 'ArrowRight') return container ? (open ? move(active + 1) : { type: 'toggle', path: r.path }) : null;
  if (key === 'ArrowLeft') {
    if (container && open) return { type: 'toggle', path: r.path };
    let parent = active - 1;
    while (parent > 0 && (rows[parent]?.depth ?? 0) >= r.depth) parent--;
    return move(parent);
  }
  if (key === 'Enter') {
    if (r.type === 'more') return { type: 'more', path: r.path, loaded: r.loaded };
    if (r.elided !== null) return { type: 'load', stub: r.elided };
    return container ? { type: 'toggle', path: r.path } : null;
  }
  return null;
}
