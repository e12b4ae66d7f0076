// Which steps a reader can only see through a loop: X reaches the reader, but only along a path
// that goes back through a loop edge (an edge with maxTraversals). Such an X has run in an earlier
// pass, or not at all on the first: the loop's head reading its tail, or a step in a loop reading
// its own previous output. Reachability is worked out per reader, on demand: most readers read
// only what is certain before them and never ask.
import type { GraphEdge, WorkflowGraph } from './workflow-graph.ts';

export class LoopReach {
  private readonly forwardAncestors = new Map<number, Uint8Array>();
  private readonly anyAncestors = new Map<number, Uint8Array>();

  constructor(private readonly graph: WorkflowGraph) {}

  /** The loop edge a path from `x` back to `reader` goes through, when no path avoids one. */
  loopEdgeBehind(x: number, reader: number): GraphEdge | undefined {
    const any = this.ancestors(reader, false);
    if (any[x] !== 1 || this.ancestors(reader, true)[x] === 1) return undefined;
    const fromX = this.descendants(x);
    return this.graph.edges.find((e) => e.loop && (e.from === x || fromX[e.from] === 1) && (e.to === reader || any[e.to] === 1));
  }

  /** Steps with a path of one edge or more into `v` (forward edges only, or loop edges too). */
  private ancestors(v: number, forwardOnly: boolean): Uint8Array {
    const memo = forwardOnly ? this.forwardAncestors : this.anyAncestors;
    const hit = memo.get(v);
    if (hit) return hit;
    const seen = this.walk(v, (u) => this.graph.in[u] ?? [], (e) => e.from, (e) => e.forward || (!forwardOnly && e.loop));
    memo.set(v, seen);
    return seen;
  }

  private descendants(v: number): Uint8Array {
    return this.walk(v, (u) => this.graph.out[u] ?? [], (e) => e.to, (e) => e.forward || e.loop);
  }

  /** Breadth-first from the neighbours of `v` (so `v` is marked only when it is on a cycle). */
  private walk(v: number, edgesOf: (u: number) => readonly GraphEdge[], next: (e: GraphEdge) => number, follow: (e: GraphEdge) => boolean): Uint8Array {
    const seen = new Uint8Array(this.graph.size);
    const queue = [v];
    for (let head = 0; head < queue.length; head++) {
      for (const e of edgesOf(queue[head] ?? v)) {
        const u = next(e);
        if (!follow(e) || seen[u] === 1) continue;
        seen[u] = 1;
        queue.push(u);
      }
    }
    return seen;
  }
}
