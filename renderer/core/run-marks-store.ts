// What a run's graph draws on its nodes and edges, by the id the graph is given: each step's
// detail, and each decided edge (taken or not, and why). The run page puts its run's detail here
// (from the run detail query) and, for time travel, the run as of an earlier event under its own
// id (`RUN@SEQ`). View state, not server data: nodes and edges subscribe to their own entry, and
// an unchanged step or edge keeps its object, so it does not re-render.
import { create } from 'zustand';
import type { RunDetail } from '../api/api-types.ts';
import type { StepDetail } from '../../shared/api/run-detail.ts';

interface RunMarksStore {
  /** Steps, by view id then step id: what graph nodes subscribe to. */
  steps: Record<string, Record<string, StepDetail>>;
  /** Edge decisions of the current pass, by view id then edge id: taken or not. */
  edgeTaken: Record<string, Record<string, boolean>>;
  /** Why each decided edge was taken or not, by view id then edge id (shown on hover). */
  edgeWhy: Record<string, Record<string, string>>;
  /** Shows `detail` on the graph drawn under `viewId`; null removes it. */
  showAt(viewId: string, detail: RunDetail | null): void;
}

export const useRunMarks = create<RunMarksStore>((set) => ({
  steps: {},
  edgeTaken: {},
  edgeWhy: {},
  showAt(viewId, detail) {
    if (detail === null) {
      set((s) => ({ steps: omit(s.steps, viewId), edgeTaken: omit(s.edgeTaken, viewId), edgeWhy: omit(s.edgeWhy, viewId) }));
      return;
    }
    set((s) => ({
      steps: { ...s.steps, [viewId]: mergeSteps(s.steps[viewId], detail.steps) },
      edgeTaken: { ...s.edgeTaken, [viewId]: sameRecord(s.edgeTaken[viewId], Object.fromEntries(detail.edges.map((e) => [e.id, e.taken]))) },
      edgeWhy: { ...s.edgeWhy, [viewId]: sameRecord(s.edgeWhy[viewId], Object.fromEntries(detail.edges.map((e) => [e.id, e.why]))) },
    }));
  },
}));

/** Keeps the object of each unchanged step, so a node whose step did not change does not re-render. */
function mergeSteps(before: Record<string, StepDetail> | undefined, steps: StepDetail[]): Record<string, StepDetail> {
  const next: Record<string, StepDetail> = {};
  for (const step of steps) {
    const old = before?.[step.id];
    next[step.id] = old !== undefined && JSON.stringify(old) === JSON.stringify(step) ? old : step;
  }
  return next;
}

/** The old record when nothing changed, so edges whose decision did not change do not re-render. */
function sameRecord<T>(before: Record<string, T> | undefined, after: Record<string, T>): Record<string, T> {
  if (before === undefined) return after;
  const keys = Object.keys(after);
  return keys.length === Object.keys(before).length && keys.every((k) => before[k] === after[k]) ? before : after;
}

function omit<T>(record: Record<string, T>, key: string): Record<string, T> {
  const { [key]: _gone, ...rest } = record;
  return rest;
}
