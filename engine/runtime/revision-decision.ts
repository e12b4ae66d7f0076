// Restart per prerequisite, as one pure decision: when a step's first attempt of an activation is
// about to start in a later revision (or in a fork), what its earlier evidence means for it. The
// scheduler acts on this decision, and `weft revise` plans with it (revision-plan.ts), so what a
// revision says it will do and what it does come from the same rules.
import type { OnRevise } from '../../shared/definition/names.ts';
import type { Step } from '../../shared/definition/workflow-schema.ts';
import type { Evidence, RunModel, StepRuntime } from '../../shared/run/run-model.ts';

export type RevisionDecision =
  /** Its input is unchanged: the evidence still covers it (evidence_reused). */
  | { kind: 'reuse'; evidence: Evidence; reason: string }
  /** An external attempt with the same input has an unknown outcome: never repeated (outcome_carried). */
  | { kind: 'carry'; unknown: RunModel['unknowns'][number]; reason: string }
  /** Its input changed after its effect happened and onRevise is keep: the earlier evidence stands. */
  | { kind: 'keep'; evidence: Evidence; reason: string }
  /** Its input changed after its effect happened: a person decides (revision_held). */
  | { kind: 'ask'; evidence: Evidence; reason: string }
  /** It runs (again). */
  | { kind: 'run'; reason: string };

/** The step's onRevise, or its default: ask for external steps, rerun for the others. */
export function onReviseOf(step: Step): OnRevise {
  return step.onRevise ?? (step.effect === 'external' ? 'ask' : 'rerun');
}

/** The reason a held step gives; `weft inspect`, the plan and the log all show it. */
export const HELD_REASON = 'its input changed after its effect happened';

/** The reason a step whose earlier effect was offset (compensated) gives when it waits for a decision. */
export const OFFSET_REASON = 'its earlier effect was undone by a compensation';

/**
 * What to do with a step whose resolved input hashes to `inputHash`, in input revision `revision`
 * of run `m` (the current one when the engine decides; the next one when a revision is planned).
 * Only evidence of an earlier revision or of another run (a fork's source) counts, and, for an
 * external step an operator's action re-decided (`s.reopened`, path_reopened), the evidence of
 * its activations before that: an effect that happened is never repeated by a re-decision alone.
 * Evidence whose effect a compensation offset never counts as done.
 */
export function decideRevision(m: RunModel, step: Step, s: StepRuntime, inputHash: string, revision: number = m.inputRevision): RevisionDecision {
  const reopened = step.effect === 'external' ? s.reopened : null;
  if (revision === 1 && m.forkOf === undefined && reopened === null) return { kind: 'run', reason: 'first pass' };
  const earlier = (fromRun: string, rev: number, activation: number): boolean =>
    fromRun !== m.runId || rev < revision || (reopened !== null && rev === revision && activation <= reopened.activation);
  let same: Evidence | undefined;
  let latest: Evidence | undefined;
  for (const ev of m.evidenceByStep.get(s.id) ?? []) {
    // Pinned evidence (a debug run's stand-in output) is never reused: a pinned step is pinned again.
    if (ev.pinned === true || !ev.satisfies || ev.covers.definitionVersion !== m.workflow.version || !earlier(ev.fromRun, ev.covers.inputRevision, ev.activation)) continue;
    latest = ev;
    if (ev.covers.inputHash === inputHash && ev.offsetBy === undefined) same = ev;
  }
  const of = (ev: Evidence): string => `evidence ${ev.id} (revision ${ev.covers.inputRevision}${ev.fromRun === m.runId ? '' : ` of run ${ev.fromRun}`})`;
  if (same) {
    const since = reopened !== null && same.fromRun === m.runId && same.covers.inputRevision === revision;
    return { kind: 'reuse', evidence: same, reason: since ? `input unchanged: ${of(same)} still covers it, so its effect is not repeated` : `input unchanged: ${of(same)} still covers it` };
  }
  if (step.effect === 'external') {
    const u = m.unknowns.filter((x) => x.stepId === s.id && x.inputHash === inputHash && earlier(x.fromRun, x.inputRevision, x.activation)).pop();
    if (u) {
      return { kind: 'carry', unknown: u, reason: `attempt ${s.id}/${u.activation}.${u.attempt}${u.fromRun === m.runId ? '' : ` of run ${u.fromRun}`} with the same input has an unknown outcome; it is not repeated` };
    }
  }
  if (latest === undefined) return { kind: 'run', reason: 'it has no earlier evidence' };
  // A step that already ran (or was decided on) in this revision runs again as usual: a loop pass, an operator's retry.
  if (reopened === null && s.actedRevision >= revision) return { kind: 'run', reason: 'it has already run or been decided on in this revision' };
  const policy = onReviseOf(step);
  const defaulted = step.onRevise === undefined ? ' by default' : '';
  if (latest.offsetBy !== undefined) {
    // Its effect was undone: nothing stands to keep, so keep runs it again too.
    const undone = `${of(latest)} was offset by "${latest.offsetBy}"`;
    if (policy !== 'ask') return { kind: 'run', reason: `${undone}: it runs again (onRevise is ${policy}${defaulted})` };
    return { kind: 'ask', evidence: latest, reason: `${OFFSET_REASON}: ${undone}; a person decides: weft retry runs it again, weft skip settles it with a given output` };
  }
  if (policy === 'rerun') return { kind: 'run', reason: `its input changed (onRevise is rerun${defaulted})` };
  if (policy === 'keep') return { kind: 'keep', evidence: latest, reason: `${HELD_REASON}; onRevise is keep: ${of(latest)} stands` };
  return {
    kind: 'ask',
    evidence: latest,
    reason: `${HELD_REASON}: ${of(latest)} covers the earlier input; a person decides: weft retry runs it again, weft keep keeps that evidence, weft skip settles it with a given output`,
  };
}
