// The outcomes an edge from a step can follow, from its kind's entry in the step-kind registry
// (step-kinds.ts), so an editor offers only edges that can be taken. `any` matches every settled
// outcome; `exhausted` is offered only where the step has a loop edge to stand in for.
import type { Step } from './workflow-schema.ts';
import type { EdgeOutcome } from './names.ts';
import { KIND_SPECS, waitsOnTheWorld } from './step-kinds.ts';

/**
 * The outcomes an edge from `step` may follow, most common first. An external step reports a
 * timeout as `unknown`, so it offers `unknown` instead of `timed_out`.
 *
 * @example
 * edgeOutcomesFor({ id: 'charge', kind: 'http', effect: 'external', config: {...} }) // ['succeeded', 'failed', 'unknown', 'budget_exceeded', 'any']
 */
export function edgeOutcomesFor(step: Pick<Step, 'kind' | 'effect'> & Partial<Pick<Step, 'revalidate'>>, hasLoopEdge = false): EdgeOutcome[] {
  const spec = KIND_SPECS[step.kind];
  const own: readonly EdgeOutcome[] = spec.outcomes;
  if (own.length === 0) return [];
  const external = step.effect === 'external' && spec.canHaveEffect;
  // An external step's timeout is its `unknown`, in the place of `timed_out`.
  const list: EdgeOutcome[] = external ? own.flatMap((o): EdgeOutcome[] => (o === 'timed_out' ? ['unknown'] : o === 'unknown' ? [] : [o])) : [...own];
  // A step that re-checks its assumptions when it resumes settles `stale` when they no longer hold.
  if (step.revalidate !== undefined && waitsOnTheWorld(step.kind)) list.push('stale');
  if (list.length > 1) list.push('any');
  if (hasLoopEdge) list.push('exhausted');
  return list;
}
