// Whether a join can go on, from the decisions of its incoming edges newer than `window` (the seq
// its pass started after). The rule, the same in every mode (docs/definition-format.md "join"):
// a required branch (not `optional`) that fails or is skipped before the join goes on fails it,
// unless `onFailedBranch` / `onCancelledBranch` is `ignore`, when it simply does not arrive. An
// `all` join goes on only when every required branch has arrived; `atLeast` at N arrivals; `any` at
// the first. The operator commands ask the same question (joinRefusal): a join is never settled by
// hand while a branch it needs is missing.
import type { Step } from '../definition/workflow-schema.ts';
import type { DefinitionIndex, IndexedEdge } from './definition-index.ts';
import type { RunModel, StepRuntime } from './run-model.ts';

export type Readiness =
  | { kind: 'wait'; reason?: string }
  | { kind: 'activate'; reason: string }
  | { kind: 'skip'; reason: string }
  /** A settled step no edge into it is taken for any more: it keeps its last activation, its own edges are not taken. */
  | { kind: 'pass_over'; reason: string }
  | { kind: 'fail'; reason: string };

const FAILURE_OUTCOMES = new Set(['failed', 'unknown', 'timed_out', 'rejected', 'expired', 'budget_exceeded']);

export function joinReadiness(run: RunModel, index: DefinitionIndex, step: Step & { kind: 'join' }, window: number): Readiness {
  const forward = (index.in.get(step.id) ?? []).filter((e) => !e.loop);
  if (forward.length === 0) return { kind: 'wait' };
  const decision = (e: IndexedEdge) => run.edges.get(e.edge.id);
  const fresh = (e: IndexedEdge): boolean => (decision(e)?.seq ?? 0) > window;
  const arrived = (e: IndexedEdge): boolean => fresh(e) && decision(e)?.taken === true;
  const taken = forward.filter(arrived);
  const cause = (e: IndexedEdge): 'failed' | 'cancelled' => {
    const outcome = run.steps.get(e.edge.from)?.outcome;
    return outcome !== null && outcome !== undefined && FAILURE_OUTCOMES.has(outcome) ? 'failed' : 'cancelled';
  };
  const ignored = (e: IndexedEdge): boolean =>
    cause(e) === 'failed' ? step.config?.onFailedBranch === 'ignore' : step.config?.onCancelledBranch === 'ignore';
  const optional = (e: IndexedEdge): boolean => index.steps.get(e.edge.from)?.optional === true;
  const branchList = (es: IndexedEdge[]): string => es.map((e) => `"${e.edge.from}"`).join(', ');
  const whyNot = (es: IndexedEdge[]): string => es.map((e) => decision(e)?.why ?? '').join('; ');
  const pendingWhy = (es: IndexedEdge[]): string =>
    `${es.length === 1 ? 'branch' : 'branches'} ${branchList(es)} ${es.length === 1 ? 'has' : 'have'} not arrived (${es.map((e) => `"${e.edge.from}" is ${run.steps.get(e.edge.from)?.state ?? 'unknown'}`).join(', ')})`;
  const mode = step.config?.mode ?? 'all';

  if (mode === 'any') {
    if (taken.length > 0) return { kind: 'activate', reason: `branch ${branchList(taken.slice(0, 1))} arrived` };
    if (!forward.every((e) => run.edges.has(e.edge.id))) return { kind: 'wait', reason: 'no branch has arrived yet' };
    const failedHard = forward.filter((e) => cause(e) === 'failed' && !ignored(e) && !optional(e));
    return failedHard.length > 0
      ? { kind: 'fail', reason: `no branch arrived; ${branchList(failedHard)} failed` }
      : { kind: 'skip', reason: 'no branch arrived' };
  }
  if (mode === 'atLeast') {
    const need = step.config?.count ?? 1;
    const stopped = forward.filter((e) => fresh(e) && !arrived(e) && !optional(e) && !ignored(e));
    const failedHard = stopped.filter((e) => cause(e) === 'failed');
    if (failedHard.length > 0) return { kind: 'fail', reason: `required ${failedHard.length === 1 ? 'branch' : 'branches'} ${branchList(failedHard)} failed before ${need} branches arrived (${whyNot(failedHard)})` };
    if (taken.length >= need) return { kind: 'activate', reason: `${taken.length} of ${need} required branches arrived (${branchList(taken)})` };
    if (stopped.length > 0 && taken.length > 0) return { kind: 'fail', reason: `required ${stopped.length === 1 ? 'branch' : 'branches'} ${branchList(stopped)} did not arrive (${whyNot(stopped)})` };
    const open = forward.filter((e) => !fresh(e));
    if (taken.length + open.length >= need) return { kind: 'wait', reason: `${taken.length} of ${need} branches arrived; ${pendingWhy(open)}` };
    if (taken.length === 0 && forward.every((e) => cause(e) === 'cancelled')) return { kind: 'skip', reason: 'no branch arrived' };
    return { kind: 'fail', reason: `only ${taken.length} of the ${need} required branches can arrive` };
  }
  // all / subset: every required branch must arrive.
  const names = mode === 'subset' ? new Set(step.config?.branches ?? []) : undefined;
  const required = forward.filter((e) => (names ? names.has(e.edge.from) : !optional(e)));
  const pendingRequired = required.filter((e) => !fresh(e));
  if (pendingRequired.length > 0) return { kind: 'wait', reason: pendingWhy(pendingRequired) }; // optional branches are not awaited
  const missing = required.filter((e) => !arrived(e) && !ignored(e));
  if (taken.length === 0) {
    return missing.some((e) => cause(e) === 'failed')
      ? { kind: 'fail', reason: `branches ${branchList(missing)} did not arrive` }
      : { kind: 'skip', reason: 'no branch arrived' };
  }
  if (missing.length > 0) return { kind: 'fail', reason: `branch ${branchList(missing)} did not arrive (${whyNot(missing)})` };
  return { kind: 'activate', reason: `all required branches arrived (${branchList(required.filter(arrived))})` };
}

/**
 * A join that failed goes on after all when a branch it missed arrives later (an operator retried,
 * resolved or skipped it): its pass is judged again from where it started. Anything short of
 * going on leaves the failed join as it is.
 */
export function lateJoinReadiness(run: RunModel, index: DefinitionIndex, step: Step & { kind: 'join' }, s: StepRuntime): Readiness {
  const late = (index.in.get(step.id) ?? []).filter((e) => {
    const d = run.edges.get(e.edge.id);
    return !e.loop && d?.taken === true && d.seq > s.openedSeq;
  });
  if (late.length === 0) return { kind: 'wait' };
  const r = joinReadiness(run, index, step, s.passFrom);
  if (r.kind !== 'activate') return { kind: 'wait' };
  return { kind: 'activate', reason: `${late.map((e) => `"${e.edge.from}"`).join(', ')} arrived after the join failed: ${r.reason}` };
}

/** Why an operator may not settle this join now (retry or skip), or undefined when its branches are all in. */
export function joinRefusal(run: RunModel, index: DefinitionIndex, step: Step & { kind: 'join' }, s: StepRuntime): string | undefined {
  const r = joinReadiness(run, index, step, s.state === 'blocked' ? s.openedSeq : s.passFrom);
  if (r.kind === 'activate') return undefined;
  return r.reason ?? 'its branches have not arrived';
}
