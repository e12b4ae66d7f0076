// An edge on `budget_exceeded` (docs/budgets.md) is taken only from a step whose attempts are
// billed, so that its run's budget is checked before each of them (step-kinds.ts, billsAttempts):
// from a person, a timer, a router or a transform it can never be taken.
import { billsAttempts } from '../../definition/step-kinds.ts';
import type { ValidationContext } from '../validation-context.ts';

export function checkBudgetEdges(ctx: ValidationContext): void {
  const { graph } = ctx;
  for (const e of graph.edges) {
    if (!e.outcomes.has('budget_exceeded')) continue;
    const from = graph.step(e.from);
    if (billsAttempts(from.kind)) continue;
    ctx.atEdge(e, ['on'], {
      code: 'budget-edge-never-taken',
      severity: 'warning',
      message: `edge "${e.edge.id}" follows "budget_exceeded", but "${from.id}" is a ${from.kind} step, which no budget stops: only agent, script, command and http steps settle budget_exceeded`,
      hint: `lead the edge from the billed step whose budget may run out, or follow another outcome of "${from.id}"`,
    }, from.id);
  }
}
