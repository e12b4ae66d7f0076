// When a step settles, each outgoing edge is decided: taken or not, with the reason. Routers take
// the first matching edge, else their default; other steps take every edge whose outcome and
// condition match. A loop edge past its maxTraversals is not taken; the step's `exhausted` edges
// are then taken in its place (decided last, like a router's default, which they pre-empt).
import type { EdgeDecision, SettleOutcome } from '../../shared/events/run-event.ts';
import type { DefinitionIndex, IndexedEdge } from '../../shared/run/definition-index.ts';
import { evaluate, type RunContext } from './expressions.ts';
import type { RunModel } from '../../shared/run/run-model.ts';

const follows = (e: IndexedEdge, outcome: SettleOutcome): boolean =>
  outcome !== 'skipped' && outcome !== 'cancelled' && (e.outcomes.has(outcome as never) || e.outcomes.has('any'));

const isExhaustedEdge = (e: IndexedEdge): boolean => e.outcomes.has('exhausted');

/** A `when` that holds, or why not. */
async function condition(e: IndexedEdge, context: RunContext): Promise<{ holds: boolean; why: string }> {
  if (e.edge.when === undefined) return { holds: true, why: '' };
  try {
    const holds = (await evaluate(e.edge.when, context)) === true;
    return { holds, why: holds ? `condition "${e.edge.when}" is true` : `condition "${e.edge.when}" is not true` };
  } catch (err) {
    return { holds: false, why: `condition "${e.edge.when}" could not be evaluated: ${(err as Error).message}` };
  }
}

/** The decisions of a passed-over step's outgoing edges: none is taken, so the dead path goes on. */
export function passedOverDecisions(index: DefinitionIndex, stepId: string): EdgeDecision[] {
  return (index.out.get(stepId) ?? []).map((e) => ({ id: e.edge.id, taken: false, why: `"${stepId}" is not on the path any more (passed over)` }));
}

export async function decideEdges(
  run: RunModel,
  index: DefinitionIndex,
  stepId: string,
  outcome: SettleOutcome,
  context: RunContext,
): Promise<EdgeDecision[]> {
  const outs = index.out.get(stepId) ?? [];
  const isRouter = index.steps.get(stepId)?.kind === 'router';
  const decisions: EdgeDecision[] = [];
  let routed = false;
  let usedUp: IndexedEdge | undefined;
  let exhaustedTaken = false;
  for (const e of outs) {
    if ((e.edge.default === true && isRouter) || isExhaustedEdge(e)) continue; // decided after the others
    let taken = false;
    let why: string;
    if (outcome === 'skipped' || outcome === 'cancelled') why = `"${stepId}" was ${outcome}`;
    else if (!follows(e, outcome)) why = `"${stepId}" ${outcome}; the edge follows ${[...e.outcomes].join('|')}`;
    else if (isRouter && routed) why = 'an earlier edge of the router matched';
    else {
      const c = await condition(e, context);
      taken = c.holds;
      why = e.edge.when === undefined ? `"${stepId}" ${outcome}` : c.why;
    }
    if (taken && e.loop) {
      const used = run.traversals.get(e.edge.id) ?? 0;
      if (used >= (e.edge.maxTraversals ?? 0)) {
        taken = false;
        usedUp ??= e;
        why = `maxTraversals (${e.edge.maxTraversals}) reached`;
      } else why += ` (traversal ${used + 1} of ${e.edge.maxTraversals})`;
    }
    if (taken && isRouter) routed = true;
    decisions.push({ id: e.edge.id, taken, why });
  }
  for (const e of outs) {
    if (!isExhaustedEdge(e)) continue;
    let taken = false;
    let why = `no loop edge of "${stepId}" has used up its maxTraversals`;
    if (usedUp !== undefined) {
      const c = await condition(e, context);
      taken = c.holds;
      why = `loop edge "${usedUp.edge.id}" has used up its maxTraversals (${usedUp.edge.maxTraversals})${e.edge.when === undefined ? '' : `; ${c.why}`}`;
    }
    exhaustedTaken ||= taken;
    decisions.push({ id: e.edge.id, taken, why });
  }
  if (isRouter) {
    for (const e of outs) {
      if (e.edge.default !== true) continue;
      const taken = !routed && !exhaustedTaken && follows(e, outcome);
      const why = taken ? 'no condition matched: default edge' : routed ? 'a condition matched' : exhaustedTaken ? 'an exhausted edge was taken' : `"${stepId}" was ${outcome}`;
      decisions.push({ id: e.edge.id, taken, why });
    }
  }
  return decisions;
}
