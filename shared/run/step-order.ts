// The order two runs are compared in: a topological order of the graph both versions make
// together, so "the first difference" is the one upstream of the others whatever the timing of
// parallel branches, and the same for the same two runs every time.

/** A graph as the comparison sees it: steps in document order and edges by their ends. */
export interface OrderGraph {
  steps: readonly string[];
  edges: readonly { from: string; to: string }[];
}

/**
 * Steps of every graph given, each once, in a topological order of their union: a step comes after
 * every step with an edge into it, ties going to the one first in the documents (the first
 * graph's steps, then steps only the next one has). Loops are cut at their back edges, found by a
 * depth-first walk from the entry steps (no edge in) first, so a loop's body keeps its own order.
 *
 * @example
 * stepOrder([{ steps: ['done', 'a', 'b'], edges: [{ from: 'a', to: 'b' }, { from: 'b', to: 'done' }] }]);
 * // ['a', 'b', 'done']
 */
export function stepOrder(graphs: readonly OrderGraph[]): string[] {
  const known = new Set(graphs.flatMap((g) => g.steps));
  const out = new Map<string, string[]>([...known].map((s) => [s, []]));
  for (const g of graphs) {
    for (const e of g.edges) {
      const targets = out.get(e.from);
      if (targets !== undefined && known.has(e.to) && !targets.includes(e.to)) targets.push(e.to);
    }
  }
  const back = backEdges(known, out);
  const rank = new Map([...known].map((s, i) => [s, i]));
  const waiting = new Map<string, number>([...known].map((s) => [s, 0]));
  for (const [from, targets] of out) for (const to of targets) if (!back.has(`${from}\n${to}`)) waiting.set(to, (waiting.get(to) ?? 0) + 1);
  // Kahn's algorithm with the free steps in a heap by document rank. Without back edges the graph
  // has no cycle, so every step comes free once the steps before it are placed.
  const free = new RankHeap();
  for (const [s, n] of waiting) if (n === 0) free.push(rank.get(s) ?? 0);
  const byRank = [...known];
  const order: string[] = [];
  for (let r = free.pop(); r !== undefined; r = free.pop()) {
    const step = byRank[r];
    if (step === undefined) continue;
    order.push(step);
    for (const to of out.get(step) ?? []) {
      if (back.has(`${step}\n${to}`)) continue;
      const n = (waiting.get(to) ?? 0) - 1;
      waiting.set(to, n);
      if (n === 0) free.push(rank.get(to) ?? 0);
    }
  }
  return order;
}

/** A min-heap of document ranks. */
class RankHeap {
  private readonly items: number[] = [];

  push(rank: number): void {
    const a = this.items;
    a.push(rank);
    for (let i = a.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      const [x, p] = [a[i] ?? 0, a[parent] ?? 0];
      if (p <= x) break;
      a[i] = p;
      a[parent] = x;
      i = parent;
    }
  }

  pop(): number | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length === 0 || last === undefined) return top;
    a[0] = last;
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let min = i;
      if (l < a.length && (a[l] ?? 0) < (a[min] ?? 0)) min = l;
      if (r < a.length && (a[r] ?? 0) < (a[min] ?? 0)) min = r;
      if (min === i) break;
      [a[i], a[min]] = [a[min] ?? 0, a[i] ?? 0];
      i = min;
    }
    return top;
  }
}

/** "FROM\nTO" of each edge that closes a cycle, by an iterative depth-first walk (deep graphs cannot overflow). */
function backEdges(steps: ReadonlySet<string>, out: ReadonlyMap<string, readonly string[]>): Set<string> {
  const back = new Set<string>();
  const state = new Map<string, 'open' | 'done'>();
  const entered = new Set([...out.values()].flat());
  const roots = [...[...steps].filter((s) => !entered.has(s)), ...steps];
  for (const root of roots) {
    if (state.has(root)) continue;
    const stack: { step: string; i: number }[] = [{ step: root, i: 0 }];
    state.set(root, 'open');
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (top === undefined) break;
      const next = out.get(top.step)?.[top.i];
      if (next === undefined) {
        state.set(top.step, 'done');
        stack.pop();
        continue;
      }
      top.i++;
      const seen = state.get(next);
      if (seen === 'open') back.add(`${top.step}\n${next}`);
      if (seen !== undefined) continue;
      state.set(next, 'open');
      stack.push({ step: next, i: 0 });
    }
  }
  return back;
}
