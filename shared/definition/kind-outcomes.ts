// The outcomes each step kind can settle with (docs/definition-format.md, "Step kinds"), so an
// editor offers only edges that can be taken. `any` matches every settled outcome; `exhausted`
// is offered only where the step has a loop edge to stand in for.
import type { Step } from './workflow-schema.ts';
import type { EdgeOutcome, StepKind } from './names.ts';

const BY_KIND: Record<StepKind, readonly EdgeOutcome[]> = {
  agent: ['succeeded', 'failed', 'timed_out'],
  script: ['succeeded', 'failed', 'timed_out'],
  command: ['succeeded', 'failed', 'timed_out', 'unknown'],
  http: ['succeeded', 'failed', 'timed_out'],
  human: ['succeeded', 'rejected', 'expired'],
  wait: ['succeeded'],
  event: ['succeeded', 'expired'],
  router: ['succeeded'],
  join: ['succeeded', 'failed'],
  map: ['succeeded', 'failed'],
  subworkflow: ['succeeded', 'failed'],
  transform: ['succeeded', 'failed'],
  end: [],
};

/**
 * The outcomes an edge from `step` may follow, most common first. An external step reports a
 * timeout as `unknown`, so it offers `unknown` instead of `timed_out`.
 *
 * @example
 * edgeOutcomesFor({ id: 'charge', kind: 'http', effect: 'external', config: {...} }) // ['succeeded', 'failed', 'unknown', 'any']
 */
export function edgeOutcomesFor(step: Pick<Step, 'kind' | 'effect'>, hasLoopEdge = false): EdgeOutcome[] {
  const own = BY_KIND[step.kind];
  if (own.length === 0) return [];
  const external = step.effect === 'external' && ['script', 'http', 'command', 'agent'].includes(step.kind);
  const list: EdgeOutcome[] = external ? [...own.filter((o) => o !== 'timed_out' && o !== 'unknown'), 'unknown'] : [...own];
  if (list.length > 1) list.push('any');
  if (hasLoopEdge) list.push('exhausted');
  return list;
}
