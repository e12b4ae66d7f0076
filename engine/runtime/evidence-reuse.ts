// Evidence reuse, as one pure plan: when a step's first attempt of an activation is about to
// start, what its earlier evidence (or an unknown outcome of the same effect) means for it, in
// the events the scheduler then writes. The rules themselves are decideRevision's, which
// `weft revise` plans with too.
import type { Step } from '../../shared/definition/workflow-schema.ts';
import type { EventData } from '../../shared/events/run-event.ts';
import { decideRevision } from './revision-decision.ts';
import type { Evidence, RunModel, StepRuntime } from '../../shared/run/run-model.ts';

export type ReusePlan =
  /** Start an attempt. */
  | { kind: 'run' }
  /** Settle succeeded with earlier evidence (evidence_reused): its input is unchanged, or onRevise is keep. */
  | { kind: 'reuse'; reused: EventData<'evidence_reused'>; reason: string; settleReason: string; evidenceId: string }
  /** Settle unknown, carrying the unknown outcome of the same external effect (outcome_carried). */
  | { kind: 'carry'; carried: EventData<'outcome_carried'>; reason: string; settleReason: string }
  /** Hold the step for a person's decision (revision_held); no attempt starts. */
  | { kind: 'ask'; held: EventData<'revision_held'>; reason: string };

/** The evidence_reused data of `ev`, now covering input revision `inputRevision`. */
export function reusedEvidence(ev: Evidence, inputRevision: number): EventData<'evidence_reused'> {
  return { evidenceId: ev.id, output: ev.output, covers: { ...ev.covers, inputRevision }, from: { runId: ev.fromRun, activation: ev.activation, attempt: ev.attempt } };
}

/**
 * What to do before the first attempt of `s`'s activation, whose resolved input is `input`
 * (hashing to `inputHash`).
 *
 * @example planReuse(run, step, s, 'h1', { n: 1 }) // { kind: 'reuse', evidenceId: 'fetch/1.1', ... } in revision 2
 */
export function planReuse(run: RunModel, step: Step, s: StepRuntime, inputHash: string, input: unknown): ReusePlan {
  const d = decideRevision(run, step, s, inputHash);
  switch (d.kind) {
    case 'run':
      return { kind: 'run' };
    case 'reuse':
    case 'keep':
      return { kind: 'reuse', reused: reusedEvidence(d.evidence, run.inputRevision), reason: d.reason, settleReason: `evidence ${d.evidence.id} reused`, evidenceId: d.evidence.id };
    case 'carry':
      return {
        kind: 'carry',
        carried: { outcome: 'unknown', fromActivation: d.unknown.activation, attempt: d.unknown.attempt },
        reason: d.reason,
        settleReason: 'outcome of the same external effect is unknown',
      };
    case 'ask':
      return { kind: 'ask', held: { evidenceId: d.evidence.id, inputHash, input }, reason: d.reason };
  }
}
