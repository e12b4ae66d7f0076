// What settling a step means beyond its edges, as one pure decision: whether a failure nobody
// handles fails the run, is absorbed (an optional step, a branch only joins read), or waits for a
// person (an unknown or partial outcome, onExhausted escalate); and what a compensation's end means.
import type { Step } from '../../shared/definition/workflow-schema.ts';
import type { EdgeDecision, SettleOutcome } from '../../shared/events/run-event.ts';
import type { DefinitionIndex } from '../../shared/run/definition-index.ts';
import type { RunModel, StepRuntime } from '../../shared/run/run-model.ts';

export type SettleFollowUp =
  /** Nothing more: the outcome is quiet, an edge handles it, or a join or `optional` absorbs it. */
  | { kind: 'none' }
  /** The run is to fail (compensating first). */
  | { kind: 'fail'; reason: string }
  /** A person must look at the step; its outgoing edges stay undecided. */
  | { kind: 'escalate'; reason: string }
  /** A compensation step succeeded: the step it compensates is offset. */
  | { kind: 'compensated'; step: string }
  /** A compensation step did not succeed: a person must offset its step. */
  | { kind: 'compensation_escalated'; reason: string };

export interface SettleDecision {
  /** The edge decisions to record (none when the step escalates). */
  edges: EdgeDecision[];
  then: SettleFollowUp;
}

const QUIET: ReadonlySet<SettleOutcome> = new Set<SettleOutcome>(['succeeded', 'skipped', 'cancelled']);

/**
 * Step `s` settles with `outcome` (`reason`), its outgoing edges decided as `edges`.
 *
 * @example decideSettle(run, index, step, s, 'failed', '1 of 1 attempts used', edges) // { edges, then: { kind: 'fail', ... } }
 */
export function decideSettle(
  run: Pick<RunModel, 'failing'>,
  index: DefinitionIndex,
  step: Step,
  s: Pick<StepRuntime, 'id' | 'compensates'>,
  outcome: SettleOutcome,
  reason: string,
  edges: EdgeDecision[],
): SettleDecision {
  const handled = edges.some((e) => e.taken);
  const quiet = QUIET.has(outcome);
  // An outcome nobody handles and a person must look at: leave the outgoing edges undecided, so
  // what follows stays blocked (not skipped) until the person acts.
  // A failed branch that only feeds joins is handled by their policy (a join that ignores failed
  // branches goes on without it; one that does not fails and routes its own failure), and an
  // optional step's failure is handled by being optional. A step's own `onExhausted: escalate`
  // comes first: the person is asked at the step that failed, and the join waits for it.
  const outs = index.out.get(s.id) ?? [];
  // A `stale` nobody routes asks a person too (docs/long-running.md): what the step decided on
  // no longer holds, and neither failing the run nor going on would be right without one. So does
  // a `partial`: part of the work happened, and going on without the rest is not the engine's call.
  const asks = outcome === 'unknown' || outcome === 'stale' || outcome === 'partial';
  const absorbed = !quiet && !handled && !asks && step.onExhausted !== 'escalate' && (step.optional === true || (outs.length > 0 && outs.every((e) => index.steps.get(e.edge.to)?.kind === 'join')));
  const escalate = !quiet && !handled && !absorbed && (asks || step.onExhausted === 'escalate');
  const recorded = escalate ? [] : edges;
  if (step.kind === 'end' && outcome === 'succeeded' && step.config?.status === 'failed' && run.failing === null) {
    return { edges: recorded, then: { kind: 'fail', reason: `reached end step "${s.id}" (status failed)` } };
  }
  if (s.compensates !== null) {
    if (outcome === 'succeeded') return { edges: recorded, then: { kind: 'compensated', step: s.compensates } };
    return { edges: recorded, then: { kind: 'compensation_escalated', reason: `compensation of "${s.compensates}" ${outcome}: a person must offset it (the run is not marked failed until then)` } };
  }
  if (quiet || handled || absorbed) return { edges: recorded, then: { kind: 'none' } };
  if (escalate) {
    return {
      edges: recorded,
      then: {
        kind: 'escalate',
        reason: outcome === 'unknown'
          ? `the outcome of "${s.id}" is unknown and no edge handles it: a person must find out whether it took effect`
          : outcome === 'stale'
            ? `"${s.id}" is stale (its revalidate check failed) and no edge follows "stale": a person must decide whether to retry, resolve or skip it`
            : outcome === 'partial'
              ? `"${s.id}" finished part of its work, its attempts are used up and no edge handles partial: a person may retry it (the retry continues from the part done) or skip it`
            : `"${s.id}" ${outcome} and onExhausted is escalate`,
      },
    };
  }
  return { edges: recorded, then: { kind: 'fail', reason: `step "${s.id}" ${outcome} (${reason}) and no edge or escalation handles it` } };
}
