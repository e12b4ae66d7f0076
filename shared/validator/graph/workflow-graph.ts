// The workflow as an indexed graph: step indices, edges with their outcome sets, entries,
// reachability, the edges that close cycles without `maxTraversals`, and a topological order of
// the acyclic part. Built once per validation; every check reads it. All walks are iterative.
import type { Edge, Step, Workflow } from '../../definition/workflow-schema.ts';
import type { EdgeOutcome } from '../../definition/names.ts';
import { edgeOutcomes, isEntryStep } from '../../definition/graph-rules.ts';

export interface GraphEdge {
  edge: Edge;
  /** Index of the edge in `workflow.edges`, for JSON paths. */
  fileIndex: number;
  from: number;
  to: number;
  outcomes: ReadonlySet<EdgeOutcome>;
  /** Carries maxTraversals: an intended loop edge. */
  loop: boolean;
  /** Part of the acyclic graph the dataflow checks use (not a loop edge, not a cycle-closing edge). */
  forward: boolean;
}

export class WorkflowGraph {
  readonly steps: Step[] = [];
  /** Index of each node's step in `workflow.steps`. */
  readonly stepFileIndex: number[] = [];
  readonly indexOf = new Map<string, number>();
  readonly edges: GraphEdge[] = [];
  readonly out: GraphEdge[][] = [];
  readonly in: GraphEdge[][] = [];
  readonly entries: number[] = [];
  readonly compensationTargets = new Set<number>();
  /** Non-loop edges that close a cycle: each is an `unbounded-cycle` finding. */
  readonly cycleClosers: GraphEdge[] = [];
  /** Nodes in an order where every forward edge goes from earlier to later. */
  readonly topo: number[] = [];
  readonly reachable: Uint8Array;

  constructor(readonly workflow: Workflow) {
    workflow.steps.forEach((step, i) => {
      if (this.indexOf.has(step.id)) return; // duplicates are reported by the id check
      this.indexOf.set(step.id, this.steps.length);
      this.steps.push(step);
      this.stepFileIndex.push(i);
      this.out.push([]);
      this.in.push([]);
    });
    workflow.edges.forEach((edge, fileIndex) => {
      const from = this.indexOf.get(edge.from);
      const to = this.indexOf.get(edge.to);
      if (from === undefined || to === undefined) return;
      const g: GraphEdge = {
        edge,
        fileIndex,
        from,
        to,
        outcomes: new Set(edgeOutcomes(edge)),
        loop: edge.maxTraversals !== undefined,
        forward: edge.maxTraversals === undefined,
      };
      this.edges.push(g);
      this.out[from]?.push(g);
      this.in[to]?.push(g);
    });
    for (const step of this.steps) {
      const c = step.compensation === undefined ? undefined : this.indexOf.get(step.compensation);
      if (c !== undefined) this.compensationTargets.add(c);
    }
    for (let v = 0; v < this.steps.length; v++) {
      const entry = isEntryStep({
        isEnd: this.step(v).kind === 'end',
        isCompensation: this.compensationTargets.has(v),
        fedByForwardEdge: (this.in[v] ?? []).some((e) => !e.loop),
        hasEdges: (this.in[v] ?? []).length > 0 || (this.out[v] ?? []).length > 0,
        stepCount: this.steps.length,
      });
      if (entry) this.entries.push(v);
    }
    this.findCycleClosers();
    this.sortTopologically();
    this.reachable = this.reach();
  }

  get size(): number {
    return this.steps.length;
  }

  step(v: number): Step {
    return this.steps[v] as Step;
  }

  /** Iterative DFS over non-loop edges; an edge to a node still on the DFS stack closes a cycle. */
  private findCycleClosers(): void {
    const n = this.size;
    const state = new Uint8Array(n); // 0 new, 1 on stack, 2 done
    const order = [...this.entries, ...Array.from({ length: n }, (_, i) => i)];
    for (const root of order) {
      if (state[root] !== 0) continue;
      const stack: { v: number; next: number }[] = [{ v: root, next: 0 }];
      state[root] = 1;
      while (stack.length > 0) {
        const top = stack[stack.length - 1] as { v: number; next: number };
        const outs = this.out[top.v] ?? [];
        if (top.next >= outs.length) {
          state[top.v] = 2;
          stack.pop();
          continue;
        }
        const e = outs[top.next++] as GraphEdge;
        if (e.loop) continue;
        if (state[e.to] === 1) {
          e.forward = false;
          this.cycleClosers.push(e);
        } else if (state[e.to] === 0) {
          state[e.to] = 1;
          stack.push({ v: e.to, next: 0 });
        }
      }
    }
  }

  private sortTopologically(): void {
    // A compensation step comes after the step it offsets: it may read that step's output.
    const indegree = new Int32Array(this.size);
    for (const e of this.edges) if (e.forward) indegree[e.to] = (indegree[e.to] ?? 0) + 1;
    const compensationOf = (v: number): number | undefined => {
      const c = this.step(v).compensation;
      const t = c === undefined ? undefined : this.indexOf.get(c);
      return t === v ? undefined : t;
    };
    for (let v = 0; v < this.size; v++) {
      const t = compensationOf(v);
      if (t !== undefined) indegree[t] = (indegree[t] ?? 0) + 1;
    }
    const queue: number[] = [];
    for (let v = 0; v < this.size; v++) if (indegree[v] === 0) queue.push(v);
    for (let head = 0; head < queue.length; head++) {
      const v = queue[head] as number;
      this.topo.push(v);
      for (const e of this.out[v] ?? []) {
        if (!e.forward) continue;
        indegree[e.to] = (indegree[e.to] ?? 0) - 1;
        if (indegree[e.to] === 0) queue.push(e.to);
      }
      const t = compensationOf(v);
      if (t !== undefined) {
        indegree[t] = (indegree[t] ?? 0) - 1;
        if (indegree[t] === 0) queue.push(t);
      }
    }
  }

  /** Reachable from an entry or from a compensation step (which the engine starts). */
  private reach(): Uint8Array {
    const seen = new Uint8Array(this.size);
    const queue = [...this.entries, ...this.compensationTargets];
    for (const v of queue) seen[v] = 1;
    for (let head = 0; head < queue.length; head++) {
      for (const e of this.out[queue[head] as number] ?? []) {
        if (seen[e.to] === 0) {
          seen[e.to] = 1;
          queue.push(e.to);
        }
      }
    }
    return seen;
  }

  /**
   * The outcomes of `e.from` that lead along `e`: its own, or for an `exhausted` edge those of the
   * loop edges it stands in for once their bound is used up.
   */
  outcomesBehind(e: GraphEdge): ReadonlySet<EdgeOutcome> {
    if (!e.outcomes.has('exhausted')) return e.outcomes;
    return new Set((this.out[e.from] ?? []).filter((l) => l.loop).flatMap((l) => [...l.outcomes]));
  }

  /** Distinct forward predecessors of a node, with the edges from each. */
  forwardPreds(v: number): Map<number, GraphEdge[]> {
    const m = new Map<number, GraphEdge[]>();
    for (const e of this.in[v] ?? []) {
      if (!e.forward) continue;
      const list = m.get(e.from);
      if (list) list.push(e);
      else m.set(e.from, [e]);
    }
    return m;
  }
}
