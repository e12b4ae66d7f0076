// Whether a blocked step may run, must be skipped, or (a join) can no longer be met, from the
// latest decision of each incoming edge. A decision counts for the step's next activation when it
// is newer than the step's last activation (`openedSeq`): that is how loops re-run a step.
import type { Step } from '../../shared/definition/workflow-schema.ts';
import type { DefinitionIndex, IndexedEdge } from './definition-index.ts';
import type { RunModel, StepRuntime } from './run-model.ts';

export type Readiness =
  | { kind: 'wait' }
  | { kind: 'activate'; reason: string }
  | { kind: 'skip'; reason: string }
  | { kind: 'fail'; reason: string };

const ACTIVE = new Set(['ready', 'running', 'retry_wait', 'waiting']);
const FAILURE_OUTCOMES = new Set(['failed', 'unknown', 'timed_out', 'rejected', 'expired']);

export function readiness(run: RunModel, index: DefinitionIndex, s: StepRuntime): Readiness {
  if (ACTIVE.has(s.state)) return { kind: 'wait' };
  const step = index.steps.get(s.id) as Step;
  const incoming = index.in.get(s.id) ?? [];
  const fresh = (e: IndexedEdge): boolean => (run.edges.get(e.edge.id)?.seq ?? 0) > s.openedSeq;
  const newTaken = (e: IndexedEdge): boolean => fresh(e) && run.edges.get(e.edge.id)?.taken === true;

  const loopTaken = incoming.find((e) => e.loop && newTaken(e));
  if (loopTaken) return { kind: 'activate', reason: `loop edge "${loopTaken.edge.id}" taken: ${run.edges.get(loopTaken.edge.id)?.why ?? ''}` };

  const forward = incoming.filter((e) => !e.loop);
  if (forward.length === 0) return { kind: 'wait' };
  const decided = forward.every((e) => run.edges.has(e.edge.id));
  const anyFresh = forward.some(fresh);
  const taken = forward.filter(newTaken);

  if (step.kind !== 'join') {
    if (!decided || !anyFresh) return { kind: 'wait' };
    if (taken.length > 0) return { kind: 'activate', reason: `edge ${taken.map((e) => `"${e.edge.id}"`).join(', ')} taken` };
    return { kind: 'skip', reason: 'no incoming edge was taken' };
  }
  if (s.state !== 'blocked') return { kind: 'wait' }; // a join runs once per pass
  const mode = step.config?.mode ?? 'all';
  const cause = (e: IndexedEdge): 'failed' | 'cancelled' => {
    const outcome = run.steps.get(e.edge.from)?.outcome;
    return outcome !== null && outcome !== undefined && FAILURE_OUTCOMES.has(outcome) ? 'failed' : 'cancelled';
  };
  const ignored = (e: IndexedEdge): boolean =>
    cause(e) === 'failed' ? step.config?.onFailedBranch === 'ignore' : step.config?.onCancelledBranch === 'ignore';
  const branchList = (es: IndexedEdge[]): string => es.map((e) => `"${e.edge.from}"`).join(', ');

  if (mode === 'any') {
    if (taken.length > 0) return { kind: 'activate', reason: `branch ${branchList(taken.slice(0, 1))} arrived` };
    if (!decided) return { kind: 'wait' };
    const failedHard = forward.filter((e) => cause(e) === 'failed' && !ignored(e));
    return failedHard.length > 0
      ? { kind: 'fail', reason: `no branch arrived; ${branchList(failedHard)} failed` }
      : { kind: 'skip', reason: 'no branch arrived' };
  }
  if (mode === 'atLeast') {
    const need = step.config?.count ?? 1;
    if (taken.length >= need) return { kind: 'activate', reason: `${taken.length} of ${need} required branches arrived (${branchList(taken)})` };
    const open = forward.filter((e) => !run.edges.has(e.edge.id) || !fresh(e)).length;
    if (taken.length + open >= need) return { kind: 'wait' };
    if (taken.length === 0 && forward.every((e) => cause(e) === 'cancelled')) return { kind: 'skip', reason: 'no branch arrived' };
    return { kind: 'fail', reason: `only ${taken.length} of the ${need} required branches can arrive` };
  }
  // all / subset: every required branch must arrive.
  const names = mode === 'subset' ? new Set(step.config?.branches ?? []) : undefined;
  const required = forward.filter((e) => (names ? names.has(e.edge.from) : index.steps.get(e.edge.from)?.optional !== true));
  const pendingRequired = required.filter((e) => !fresh(e));
  if (pendingRequired.length > 0) return { kind: 'wait' }; // optional branches are not awaited
  const missing = required.filter((e) => !newTaken(e) && !ignored(e));
  if (taken.length === 0) {
    return missing.some((e) => cause(e) === 'failed')
      ? { kind: 'fail', reason: `branches ${branchList(missing)} did not arrive` }
      : { kind: 'skip', reason: 'no branch arrived' };
  }
  if (missing.length > 0) return { kind: 'fail', reason: `branch ${branchList(missing)} did not arrive (${missing.map((e) => run.edges.get(e.edge.id)?.why ?? '').join('; ')})` };
  return { kind: 'activate', reason: `all required branches arrived (${branchList(required.filter(newTaken))})` };
}
