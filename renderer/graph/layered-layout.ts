// A fast layered layout for graphs too large for elkjs (its layered algorithm grows steeply and
// overflows the worker's stack near 5,000 steps): each step goes one column right of its
// furthest predecessor (longest path from the entry steps), and each column is ordered by the
// mean row of the predecessors (one barycentre pass), so branches stay near where they leave.
// Linear in steps and edges apart from sorting each column.

export interface LayeredInput {
  nodes: { id: string; width: number; height: number }[];
  /** Forward edges only: loop edges are left out by the caller. */
  edges: { from: string; to: string }[];
}

export interface LayeredOptions {
  gapX: number;
  gapY: number;
}

export function layeredLayout({ nodes, edges }: LayeredInput, { gapX, gapY }: LayeredOptions): Record<string, { x: number; y: number }> {
  const index = new Map(nodes.map((n, i) => [n.id, i]));
  const succ: number[][] = nodes.map(() => []);
  const preds: number[][] = nodes.map(() => []);
  const indegree = new Array<number>(nodes.length).fill(0);
  for (const e of edges) {
    const a = index.get(e.from);
    const b = index.get(e.to);
    if (a === undefined || b === undefined || a === b) continue;
    succ[a]?.push(b);
    preds[b]?.push(a);
    indegree[b] = (indegree[b] ?? 0) + 1;
  }
  // Kahn's order; steps left on a cycle the caller did not break are placed after the rest.
  const layer = new Array<number>(nodes.length).fill(0);
  const queue: number[] = [];
  indegree.forEach((d, i) => d === 0 && queue.push(i));
  const seen = new Array<boolean>(nodes.length).fill(false);
  for (let head = 0; head < queue.length; head++) {
    const v = queue[head] ?? 0;
    seen[v] = true;
    for (const w of succ[v] ?? []) {
      layer[w] = Math.max(layer[w] ?? 0, (layer[v] ?? 0) + 1);
      indegree[w] = (indegree[w] ?? 0) - 1;
      if (indegree[w] === 0) queue.push(w);
    }
  }
  let deepest = Math.max(0, ...layer);
  nodes.forEach((_, i) => {
    if (!seen[i]) layer[i] = ++deepest;
  });

  const columns: number[][] = [];
  nodes.forEach((_, i) => (columns[layer[i] ?? 0] ??= []).push(i));
  const row = new Array<number>(nodes.length).fill(0);
  const widest = new Array<number>(columns.length).fill(0);
  columns.forEach((column, c) => {
    if (column === undefined) return;
    const key = (v: number): number => {
      const p = preds[v] ?? [];
      return p.length === 0 ? v : p.reduce((sum, u) => sum + (row[u] ?? 0), 0) / p.length;
    };
    const keys = new Map(column.map((v) => [v, key(v)]));
    column.sort((a, b) => (keys.get(a) ?? 0) - (keys.get(b) ?? 0) || a - b);
    column.forEach((v, r) => {
      row[v] = r;
      widest[c] = Math.max(widest[c] ?? 0, nodes[v]?.width ?? 0);
    });
  });
  const positions: Record<string, { x: number; y: number }> = {};
  let x = 0;
  columns.forEach((column, c) => {
    let y = 0;
    for (const v of column ?? []) {
      const node = nodes[v];
      if (node === undefined) continue;
      positions[node.id] = { x, y };
      y += node.height + gapY;
    }
    x += (widest[c] ?? 0) + gapX;
  });
  return positions;
}
