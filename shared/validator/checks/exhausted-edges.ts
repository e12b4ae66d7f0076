// An `exhausted` edge is the designed way out of a bounded loop: it is taken instead of a loop edge
// of the same step once that edge's maxTraversals are used up. It must leave a step that has a
// loop edge, follow nothing else, and be neither a router's default nor a loop edge itself.
import type { ValidationContext } from '../validation-context.ts';

export function checkExhaustedEdges(ctx: ValidationContext): void {
  const { graph } = ctx;
  for (const e of graph.edges) {
    if (!e.outcomes.has('exhausted')) continue;
    const from = graph.step(e.from).id;
    const report = (path: string, message: string, hint: string): void =>
      ctx.atEdge(e, [path], { code: 'invalid-exhausted-edge', message, hint }, from);
    if (e.outcomes.size > 1) {
      report('on', `edge "${e.edge.id}" follows "exhausted" and other outcomes; "exhausted" stands alone`, `give "exhausted" an edge of its own and keep ${[...e.outcomes].filter((o) => o !== 'exhausted').join(', ')} on another edge`);
    } else if (e.edge.default === true) {
      report('default', `edge "${e.edge.id}" follows "exhausted" and is a router's default edge; it is taken only when a loop edge is used up`, 'remove "default" from the exhausted edge and give the router a default edge of its own');
    } else if (e.loop) {
      report('maxTraversals', `edge "${e.edge.id}" follows "exhausted" and has maxTraversals: the way out of a loop cannot be a loop edge itself`, 'remove maxTraversals from the exhausted edge and lead it to a step outside the loop, such as a failed end step');
    } else if (!(graph.out[e.from] ?? []).some((l) => l.loop)) {
      report('on', `edge "${e.edge.id}" follows "exhausted", but "${from}" has no loop edge (an edge with maxTraversals) whose bound could be used up`, `add maxTraversals to the edge from "${from}" that closes the loop, or follow an outcome such as "failed" or "rejected" instead`);
    }
  }
}
