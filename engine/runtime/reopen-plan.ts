// What an operator's retry, skip or resolve of a step re-decides, as one pure plan. The step's
// earlier outcome decided its outgoing edges, and those decisions settled what came after it: a
// failure edge reached an end step (the run failed), a dead path skipped the success branch, an
// unknown edge ran a charge. When the step is settled again, all of that must follow the new
// outcome, not the old one: the decisions of the edges after the step are withdrawn, and the steps
// they settled wait (blocked) to be decided again. A withdrawn end step no longer ends the run;
// a step that ran stays on record (its attempts and evidence), and an external one whose input is
// unchanged reuses its evidence instead of repeating its effect (revision-decision.ts).
// Steps still at work (ready, running, waiting) are left to the withdrawal rule (withdrawal.ts).
import type { EventData } from '../../shared/events/run-event.ts';
import type { DefinitionIndex } from '../../shared/run/definition-index.ts';
import type { RunModel } from '../../shared/run/run-model.ts';

/** The step states a re-decision resets: settled, not at work and not part of a compensation. */
const SETTLED = new Set(['succeeded', 'failed', 'unknown', 'rejected', 'skipped', 'cancelled']);

export interface ReopenPlan {
  data: EventData<'path_reopened'>;
  reason: string;
}

/**
 * The path_reopened event for an operator's `action` on `stepId`, or undefined when nothing after
 * the step has been decided yet.
 *
 * @example
 * reopenPlan(run, index, 'write', 'retry of "write" by ann')
 * // { data: { cause: 'retry of "write" by ann', edges: ['write_to_verify', …], steps: [{ stepId: 'write_failed', activation: 1, state: 'succeeded' }, …] },
 * //   reason: 'retry of "write" by ann: what followed its earlier outcome is decided again; superseded: write_failed (end step reached in activation 1); …' }
 */
export function reopenPlan(run: RunModel, index: DefinitionIndex, stepId: string, what: string): ReopenPlan | undefined {
  const after = downstreamOf(index, stepId);
  const edges: string[] = [];
  for (const from of [stepId, ...after]) {
    // A step a compensation offset (or is offsetting) keeps what it decided: nothing decides it again.
    const state = run.steps.get(from)?.state;
    if (from !== stepId && (state === 'compensated' || state === 'compensating')) continue;
    for (const e of index.out.get(from) ?? []) if (run.edges.has(e.edge.id)) edges.push(e.edge.id);
  }
  const steps: EventData<'path_reopened'>['steps'] = [];
  const superseded: string[] = [];
  const skipped: string[] = [];
  for (const id of after) {
    const s = run.steps.get(id);
    if (s === undefined || !SETTLED.has(s.state) || s.compensates !== null || index.compensations.has(id)) continue;
    steps.push({ stepId: id, activation: s.activation, state: s.state });
    if (s.state === 'skipped') skipped.push(id);
    else superseded.push(index.steps.get(id)?.kind === 'end' ? `${id} (end step reached in activation ${s.activation})` : `${id} (${s.state} in activation ${s.activation})`);
  }
  if (edges.length === 0 && steps.length === 0) return undefined;
  const parts = [`${what}: what followed its earlier outcome is decided again`];
  if (superseded.length > 0) parts.push(`superseded: ${superseded.join(', ')}`);
  if (skipped.length > 0) parts.push(`skipped before, decided again: ${skipped.join(', ')}`);
  return { data: { cause: what, edges, steps }, reason: parts.join('; ') };
}

/** The steps reachable from `stepId` by forward (non-loop) edges, nearest first; not the step itself. */
function downstreamOf(index: DefinitionIndex, stepId: string): string[] {
  const seen = new Set([stepId]);
  const order: string[] = [];
  const queue = [stepId];
  for (let k = 0; k < queue.length; k++) {
    for (const e of index.out.get(queue[k] as string) ?? []) {
      if (e.loop || seen.has(e.edge.to)) continue;
      seen.add(e.edge.to);
      order.push(e.edge.to);
      queue.push(e.edge.to);
    }
  }
  return order;
}
