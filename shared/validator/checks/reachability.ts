// Steps no run can reach, missing or unreachable end steps, and cycles without a bound.
import type { ValidationContext } from '../validation-context.ts';

/** Past this many unreachable steps, one summary finding replaces the rest. */
const LIST_LIMIT = 50;

export function checkReachability(ctx: ValidationContext): void {
  const { graph } = ctx;
  if (graph.size === 0) return;
  if (graph.entries.length === 0) {
    ctx.at(['steps'], {
      code: 'no-entry-step',
      message: 'every step has an incoming edge, so no step can start a run',
      hint: 'a run starts at the steps without incoming edges; remove the edge into the first step, or mark the edge that loops back to it with maxTraversals',
    });
  } else {
    const unreachable: number[] = [];
    for (let v = 0; v < graph.size; v++) if (graph.reachable[v] === 0) unreachable.push(v);
    for (const v of unreachable.slice(0, LIST_LIMIT)) {
      const isEnd = graph.step(v).kind === 'end';
      ctx.atStep(v, [], {
        code: isEnd ? 'unreachable-terminal' : 'unreachable-step',
        message: isEnd
          ? `end step "${graph.step(v).id}" cannot be reached from any entry step`
          : `step "${graph.step(v).id}" cannot be reached from any entry step (${entryNames(ctx)})`,
        hint: 'connect it with an edge from a step that runs, or delete it',
      });
    }
    if (unreachable.length > LIST_LIMIT) {
      ctx.at(['steps'], {
        code: 'unreachable-step',
        message: `${unreachable.length - LIST_LIMIT} more steps cannot be reached`,
        hint: 'connect them with edges from steps that run, or delete them',
      });
    }
  }
  let ends = 0;
  let reachableEnds = 0;
  for (let v = 0; v < graph.size; v++) {
    if (graph.step(v).kind !== 'end') continue;
    ends++;
    if (graph.reachable[v] === 1) reachableEnds++;
  }
  if (reachableEnds === 0 && graph.entries.length > 0) {
    ctx.at(['steps'], {
      code: 'no-reachable-terminal',
      message: ends === 0 ? 'the workflow has no end step, so no run can finish' : 'no end step can be reached, so no run can finish',
      hint: 'add a step of kind "end" and an edge to it from the last step of each path',
    });
  }
  for (const e of graph.cycleClosers) {
    const from = graph.step(e.from).id;
    const to = graph.step(e.to).id;
    ctx.atEdge(e, ['maxTraversals'], {
      code: 'unbounded-cycle',
      message: `edge "${e.edge.id}" (${from} → ${to}) closes a cycle without maxTraversals, so the loop could run forever`,
      hint: `add "maxTraversals": 3, or the bound you want, to edge "${e.edge.id}"`,
    });
  }
}

function entryNames(ctx: ValidationContext): string {
  const names = ctx.graph.entries.slice(0, 3).map((v) => ctx.graph.step(v).id);
  const more = ctx.graph.entries.length - names.length;
  return `entries: ${names.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}
