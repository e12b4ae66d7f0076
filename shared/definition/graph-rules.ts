// Two rules of the graph that the validator and the engine must read the same way.
import type { EdgeOutcome } from './names.ts';
import type { Edge } from './workflow-schema.ts';

/** The outcomes of `from` an edge follows: its `on`, or succeeded when it names none. */
export function edgeOutcomes(edge: Edge): readonly EdgeOutcome[] {
  return edge.on === undefined ? ['succeeded'] : Array.isArray(edge.on) ? edge.on : [edge.on];
}

/**
 * Whether a step starts a run: nothing but loop edges leads into it, and it is not an end step, a
 * compensation (the engine starts those) or a step with no edges at all in a workflow of several
 * steps (a forgotten step, not a start).
 */
export function isEntryStep(s: { isEnd: boolean; isCompensation: boolean; fedByForwardEdge: boolean; hasEdges: boolean; stepCount: number }): boolean {
  const isolated = !s.hasEdges && s.stepCount > 1;
  return !s.fedByForwardEdge && !isolated && !s.isCompensation && !s.isEnd;
}
