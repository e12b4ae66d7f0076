// When a step settles, each outgoing edge is decided: taken or not, with the reason. Routers take
// the first matching edge, else their default; other steps take every edge whose outcome and
// condition match. A loop edge past its maxTraversals is not taken.
import type { EdgeDecision, SettleOutcome } from '../../shared/events/run-event.ts';
import type { DefinitionIndex, IndexedEdge } from './definition-index.ts';
import { evaluate } from './expressions.ts';
import type { RunModel } from './run-model.ts';

const follows = (e: IndexedEdge, outcome: SettleOutcome): boolean =>
  outcome !== 'skipped' && outcome !== 'cancelled' && (e.outcomes.has(outcome as never) || e.outcomes.has('any'));

export async function decideEdges(
  run: RunModel,
  index: DefinitionIndex,
  stepId: string,
  outcome: SettleOutcome,
  context: Record<string, unknown>,
): Promise<EdgeDecision[]> {
  const outs = index.out.get(stepId) ?? [];
  const isRouter = index.steps.get(stepId)?.kind === 'router';
  const decisions: EdgeDecision[] = [];
  let routed = false;
  for (const e of outs) {
    if (e.edge.default === true && isRouter) continue; // decided after the others
    let taken = false;
    let why: string;
    if (outcome === 'skipped' || outcome === 'cancelled') why = `"${stepId}" was ${outcome}`;
    else if (!follows(e, outcome)) why = `"${stepId}" ${outcome}; the edge follows ${[...e.outcomes].join('|')}`;
    else if (isRouter && routed) why = 'an earlier edge of the router matched';
    else if (e.edge.when === undefined) {
      taken = true;
      why = `"${stepId}" ${outcome}`;
    } else {
      try {
        taken = (await evaluate(e.edge.when, context)) === true;
        why = taken ? `condition "${e.edge.when}" is true` : `condition "${e.edge.when}" is not true`;
      } catch (err) {
        why = `condition "${e.edge.when}" could not be evaluated: ${(err as Error).message}`;
      }
    }
    if (taken && e.loop) {
      const used = run.traversals.get(e.edge.id) ?? 0;
      if (used >= (e.edge.maxTraversals ?? 0)) {
        taken = false;
        why = `maxTraversals (${e.edge.maxTraversals}) reached`;
      } else why += ` (traversal ${used + 1} of ${e.edge.maxTraversals})`;
    }
    if (taken && isRouter) routed = true;
    decisions.push({ id: e.edge.id, taken, why });
  }
  if (isRouter) {
    for (const e of outs) {
      if (e.edge.default !== true) continue;
      const taken = !routed && follows(e, outcome);
      decisions.push({ id: e.edge.id, taken, why: taken ? 'no condition matched: default edge' : routed ? 'a condition matched' : `"${stepId}" was ${outcome}` });
    }
  }
  return decisions;
}
