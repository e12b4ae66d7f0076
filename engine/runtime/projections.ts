// Projections are caches of the event log: `runs` (one row per run) and `step_states` (the steps
// of unfinished runs: the live work an operator looks at). They can always be rebuilt from the
// log; a test rebuilds them and compares.
import type { RunRow, StepProjection, Store } from '../store/store.ts';
import { foldStoredRun } from './fold-run.ts';
import { currentAttempt, type RunModel, type StepRuntime } from '../../shared/run/run-model.ts';
import { isTerminal } from '../../shared/run/run-status.ts';

export function runRow(m: RunModel): RunRow {
  return { id: m.runId, workflowId: m.workflow.id, version: m.workflow.version, state: m.state, inputRevision: m.inputRevision, createdAt: m.createdAt, updatedAt: m.updatedAt, key: m.key ?? null };
}

/** A step's projection row. Attempts are numbered 1..n within an activation, so the latest one's number is the count. */
export function stepRow(s: StepRuntime): StepProjection {
  return { stepId: s.id, activation: s.activation, state: s.state, attempts: currentAttempt(s)?.number ?? 0, evidenceId: s.evidence?.id ?? null };
}

export function stepRows(m: RunModel): StepProjection[] {
  const out: StepProjection[] = [];
  for (const s of m.steps.values()) {
    if (s.activation === 0 && s.state === 'blocked' && s.attempts.length === 0) continue; // never touched
    out.push(stepRow(s));
  }
  return out.sort((a, b) => a.stepId.localeCompare(b.stepId));
}

/** Recomputes every projection row from the event log, in one transaction. */
export function rebuildProjections(store: Store): number {
  const ids = store.loggedRunIds();
  store.clearProjections();
  for (const id of ids) projectFromLog(store, id);
  store.flush();
  return ids.length;
}

/**
 * Rebuilds the projection rows of runs the log has and `runs` lacks (the projections disagree
 * with the log), in one transaction. Returns their ids. Cheap when nothing is missing.
 */
export function repairMissingRuns(store: Store): string[] {
  const ids = store.runsWithoutRow();
  for (const id of ids) projectFromLog(store, id);
  if (ids.length > 0) store.flush();
  return ids;
}

/** Sets a run's rows (run, and steps while it is unfinished) from its log, for the next flush. */
export function projectFromLog(store: Store, runId: string): RunModel {
  const m = foldStoredRun(store, runId);
  store.setRunProjection(runRow(m));
  // A replay (weft replay) keeps no step rows: nothing waits on it, whatever state it stopped in.
  if (!isTerminal(m.state) && !store.isReplayRun(runId)) for (const s of stepRows(m)) store.setStepProjection(runId, s);
  return m;
}
