// Joins that can never fire: an `all` join fed by branches of which only one can be taken, an
// atLeast join with fewer branches than it waits for, a subset join naming non-branches.
import { EdgeDominators } from '../graph/edge-dominators.ts';
import type { GraphEdge } from '../graph/workflow-graph.ts';
import type { ValidationContext } from '../validation-context.ts';

export function checkJoins(ctx: ValidationContext): void {
  const { graph } = ctx;
  let dominators: EdgeDominators | undefined;
  for (let v = 0; v < graph.size; v++) {
    const step = graph.step(v);
    if (step.kind !== 'join') continue;
    const mode = step.config?.mode ?? 'all';
    const incoming = (graph.in[v] ?? []).filter((e) => !e.loop);
    const branches = new Set(incoming.map((e) => e.from));
    if (mode === 'atLeast') {
      const count = step.config?.count ?? 1;
      if (branches.size < count) {
        ctx.atStep(v, ['config', 'count'], {
          code: 'impossible-join',
          message: `join "${step.id}" waits for at least ${count} branches but only ${branches.size} lead into it`,
          hint: `lower count to ${branches.size} or connect more branches`,
        });
      }
    }
    if (mode === 'subset') {
      for (const [k, id] of (step.config?.branches ?? []).entries()) {
        const b = graph.indexOf.get(id);
        if (b === undefined || !branches.has(b)) {
          ctx.atStep(v, ['config', 'branches', k], {
            code: b === undefined ? 'unknown-step-reference' : 'join-branch-not-incoming',
            message: b === undefined
              ? `join "${step.id}" waits for step "${id}", which does not exist`
              : `join "${step.id}" waits for "${id}", but no edge leads from "${id}" into the join`,
            hint: 'name steps that have an edge into this join',
          });
        }
      }
    }
    if (mode !== 'all') continue;
    const required = incoming.filter((e) => e.forward && graph.step(e.from).optional !== true);
    if (required.length < 2) continue;
    dominators ??= new EdgeDominators(graph);
    // Choices made above the join's immediate dominator are the same for every branch: walk up
    // only to it, which keeps this linear in the size of the fork rather than of the workflow.
    const clash = findExclusivePair(ctx, dominators, required, dominators.idomOf(v));
    if (clash) {
      const [a, b, at] = clash;
      const atStep = graph.step(at);
      ctx.atStep(v, ['config'], {
        code: 'impossible-join',
        message: `"all" join "${step.id}" waits for both "${graph.step(a.from).id}" and "${graph.step(b.from).id}", but only one of them can run: ${atStep.kind === 'router' ? `router "${atStep.id}" takes one edge` : `"${atStep.id}" has one outcome`} (edges "${pathEdge(ctx, dominators, a, at)}" and "${pathEdge(ctx, dominators, b, at)}")`,
        hint: 'use "mode": "any" to continue with whichever branch ran, or move the join before the choice',
      });
    }
  }
}

function findExclusivePair(
  ctx: ValidationContext,
  dominators: EdgeDominators,
  edges: readonly GraphEdge[],
  stop: number,
): [GraphEdge, GraphEdge, number] | undefined {
  const doms = edges.map((e) => dominators.dominatingEdges(e, stop));
  for (let i = 0; i < edges.length; i++) {
    for (let j = i + 1; j < edges.length; j++) {
      for (const [s, a] of doms[i] ?? []) {
        const b = doms[j]?.get(s);
        if (b !== undefined && exclusive(ctx, s, a, b)) return [edges[i] as GraphEdge, edges[j] as GraphEdge, s];
      }
    }
  }
  return undefined;
}

function exclusive(ctx: ValidationContext, s: number, a: GraphEdge, b: GraphEdge): boolean {
  if (a === b) return false;
  if (ctx.graph.step(s).kind === 'router') return true;
  const [oa, ob] = [ctx.graph.outcomesBehind(a), ctx.graph.outcomesBehind(b)];
  if (oa.has('any') || ob.has('any')) return false;
  return ![...oa].some((o) => ob.has(o));
}

function pathEdge(ctx: ValidationContext, dominators: EdgeDominators, e: GraphEdge, at: number): string {
  return dominators.dominatingEdges(e).get(at)?.edge.id ?? ctx.graph.step(at).id;
}
