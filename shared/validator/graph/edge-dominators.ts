// Dominator tree over steps *and edges* of the acyclic graph: "every path from an entry to X
// passes through edge a". Used to find an all-join whose branches can never both be taken.
// On a DAG the immediate dominator of a node is the nearest common dominator of its predecessors,
// found in topological order by walking depths up to the meeting point.
import type { GraphEdge, WorkflowGraph } from './workflow-graph.ts';

export class EdgeDominators {
  /** Node ids: steps are 0..n-1, forward edges n+k. Root is -1. */
  private readonly idom: Int32Array;
  private readonly depth: Int32Array;
  private readonly edgeNode = new Map<GraphEdge, number>();
  private readonly nodeEdge: GraphEdge[] = [];

  constructor(private readonly graph: WorkflowGraph) {
    const n = graph.size;
    for (const e of graph.edges) {
      if (!e.forward) continue;
      this.edgeNode.set(e, n + this.nodeEdge.length);
      this.nodeEdge.push(e);
    }
    const total = n + this.nodeEdge.length;
    this.idom = new Int32Array(total).fill(-1);
    this.depth = new Int32Array(total);
    for (const v of graph.topo) {
      let d = -2; // -2: not yet set
      for (const e of graph.in[v] ?? []) {
        const en = this.edgeNode.get(e);
        if (en === undefined) continue;
        this.idom[en] = e.from;
        this.depth[en] = (this.depth[e.from] ?? 0) + 1;
        d = d === -2 ? en : this.meet(d, en);
      }
      this.idom[v] = d === -2 ? -1 : d;
      this.depth[v] = d < 0 ? 1 : (this.depth[d] ?? 0) + 1;
    }
  }

  private meet(a: number, b: number): number {
    let x = a;
    let y = b;
    while (x !== y) {
      if (x < 0 || y < 0) return -1;
      if ((this.depth[x] ?? 0) >= (this.depth[y] ?? 0)) x = this.idom[x] ?? -1;
      else y = this.idom[y] ?? -1;
    }
    return x;
  }

  /** The immediate dominator of step `v` (a step or edge node), -1 for the root. */
  idomOf(v: number): number {
    return this.idom[v] ?? -1;
  }

  /**
   * For each step S, the edge out of S that every path through `e` takes (including e itself),
   * walking up the dominator tree until `stop` (a node that dominates e) or the root.
   */
  dominatingEdges(e: GraphEdge, stop = -1): Map<number, GraphEdge> {
    const out = new Map<number, GraphEdge>();
    let x = this.edgeNode.get(e) ?? -1;
    const n = this.graph.size;
    while (x >= 0 && x !== stop) {
      if (x >= n) {
        const edge = this.nodeEdge[x - n] as GraphEdge;
        if (!out.has(edge.from)) out.set(edge.from, edge);
      }
      x = this.idom[x] ?? -1;
    }
    return out;
  }
}
