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
  const into = new Map<string, Set<string>>([...known].map((s) => [s, new Set<string>()]));
  for (const [from, targets] of out) for (const to of targets) if (!back.has(`${from}\n${to}`)) into.get(to)?.add(from);
  const left = new Set(known);
  const order: string[] = [];
  while (left.size > 0) {
    // `left` keeps document order, so the first free step found is the first in the documents.
    // Graphs are at most a few thousand steps; a scan per pick keeps this simple.
    let pick: string | undefined;
    for (const s of left) {
      if ((into.get(s)?.size ?? 0) > 0) continue;
      pick = s;
      break;
    }
    pick ??= left.values().next().value;
    if (pick === undefined) break;
    left.delete(pick);
    order.push(pick);
    for (const t of out.get(pick) ?? []) into.get(t)?.delete(pick);
  }
  return order;
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
