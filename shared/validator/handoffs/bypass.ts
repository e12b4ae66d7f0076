// Why a source may not have run before a reader: the branch a run can take instead. On the
// forward graph, the steps that lead to the reader but neither lead to the source nor follow it are
// on another branch; the edges that leave the source's ancestors into such a branch (or go
// straight to the reader) are where a run turns away from it. Edges out of the source on outcomes
// without an output are the other way to miss it.
import type { WorkflowGraph } from '../graph/workflow-graph.ts';

export interface Bypass {
  steps: string[];
  edges: string[];
}

/**
 * @example
 * // route → fetch_full | quick → merge → report, report reads fetch_full
 * bypassOf(graph, fetchFull, report); // { steps: ['quick'], edges: ['to_quick'] }
 */
export function bypassOf(graph: WorkflowGraph, source: number, reader: number): Bypass {
  const toReader = walk(graph, reader, 'in');
  toReader[reader] = 1;
  const toSource = walk(graph, source, 'in');
  const fromSource = walk(graph, source, 'out');
  const steps: string[] = [];
  for (let v = 0; v < graph.size; v++) {
    if (v !== source && v !== reader && toReader[v] === 1 && toSource[v] !== 1 && fromSource[v] !== 1) steps.push(graph.step(v).id);
  }
  const edges: string[] = [];
  for (const e of graph.edges) {
    if (!e.forward || toReader[e.to] !== 1) continue;
    const turnsAway = toSource[e.from] === 1 && e.to !== source && toSource[e.to] !== 1 && fromSource[e.to] !== 1;
    const noOutput = e.from === source && [...graph.outcomesBehind(e)].some((o) => o !== 'succeeded' && o !== 'rejected' && o !== 'partial');
    if (turnsAway || (noOutput && e.to !== source)) edges.push(e.edge.id);
  }
  return { steps, edges };
}

/** Steps with a forward path into (`in`) or out of (`out`) `v`, not counting `v` unless on a cycle. */
function walk(graph: WorkflowGraph, v: number, dir: 'in' | 'out'): Uint8Array {
  const seen = new Uint8Array(graph.size);
  const queue = [v];
  for (let head = 0; head < queue.length; head++) {
    const u = queue[head] as number;
    for (const e of (dir === 'in' ? graph.in[u] : graph.out[u]) ?? []) {
      if (!e.forward) continue;
      const w = dir === 'in' ? e.from : e.to;
      if (seen[w] === 1) continue;
      seen[w] = 1;
      queue.push(w);
    }
  }
  return seen;
}
