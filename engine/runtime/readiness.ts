// Whether a blocked step may run, must be skipped, or (a join) can no longer be met, from the
// latest decision of each incoming edge. A decision counts for the step's next activation when it
// is newer than the step's last activation (`openedSeq`): that is how loops re-run a step. A step
// that has settled is never skipped over what it did: when no edge into it is taken any more (a
// later pass took another way, or an operator's action re-decided what led to it) it is passed
// over, keeping its last activation; while one edge into it still holds, its activation stands.
import type { Step } from '../../shared/definition/workflow-schema.ts';
import type { DefinitionIndex, IndexedEdge } from '../../shared/run/definition-index.ts';
import { joinReadiness, lateJoinReadiness, type Readiness } from '../../shared/run/join-readiness.ts';
import type { RunModel, StepRuntime } from '../../shared/run/run-model.ts';

export type { Readiness };

const ACTIVE = new Set(['ready', 'running', 'retry_wait', 'waiting']);

/** `from` is a new step a migration after `since` decided to run (run_migrated's decisions). */
const ranByMigration = (run: RunModel, from: string, since: number): boolean => run.migrations.some((m) => m.seq > since && m.ran.includes(from));

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
    // A step a migration ran (`--decide STEP=run`) comes before work done before the migration: that work is not run again.
    if (taken.length > 0 && s.lastSettled !== null && taken.every((e) => ranByMigration(run, e.edge.from, s.openedSeq))) return { kind: 'wait' };
    if (taken.length > 0) return { kind: 'activate', reason: `edge ${taken.map((e) => `"${e.edge.id}"`).join(', ')} taken` };
    if (s.state === 'blocked' || s.state === 'skipped') return { kind: 'skip', reason: 'no incoming edge was taken' };
    if (forward.some((e) => run.edges.get(e.edge.id)?.taken === true)) return { kind: 'wait' };
    const why = forward.filter(fresh).map((e) => `"${e.edge.id}": ${run.edges.get(e.edge.id)?.why ?? 'not taken'}`).join('; ');
    return { kind: 'pass_over', reason: `no edge into it is taken any more (${why})` };
  }
  // A join runs once per pass; a failed one goes on only if a branch it missed arrives later.
  if (s.state === 'blocked') return joinReadiness(run, index, step, s.openedSeq);
  if (s.state === 'failed') return lateJoinReadiness(run, index, step, s);
  return { kind: 'wait' };
}
