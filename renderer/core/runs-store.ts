// Runs: the list (newest first) and the detail of each opened run. The live stream keeps both
// current: a run's state changes in the list as its events arrive, and an opened run's restart
// record is refetched (at most every 120 ms) while its events keep coming.
import { create } from 'zustand';
import type { RunDetail, RunSummary, StreamMessage } from '../api/api-types.ts';
import type { StepDetail } from '../../shared/api/run-detail.ts';
import type { RunState } from '../../shared/definition/names.ts';
import { isFinishedRunState, RUN_STATES } from '../../shared/definition/names.ts';
import { requireClient } from './session-store.ts';

interface RunsStore {
  order: string[];
  byId: Record<string, RunSummary>;
  listLoaded: boolean;
  listError: string | null;
  details: Record<string, RunDetail>;
  detailErrors: Record<string, string>;
  /** Steps of opened runs, by run then step id: what graph nodes subscribe to. */
  steps: Record<string, Record<string, StepDetail>>;
  /** Edge decisions of opened runs' current pass, by run then edge id: taken or not. */
  edgeTaken: Record<string, Record<string, boolean>>;
  /** Why each decided edge was taken or not, by run then edge id (shown on hover). */
  edgeWhy: Record<string, Record<string, string>>;
  /**
   * Shows a run as of an earlier point (time travel): its folded detail is kept under `viewId`,
   * which a graph takes as its run id; null removes it.
   */
  showAt(viewId: string, detail: RunDetail | null): void;
  refreshList(): Promise<void>;
  loadRun(id: string): Promise<void>;
  applyStream(messages: StreamMessage[]): void;
}

const REFETCH_MS = 120;
const pending = new Map<string, ReturnType<typeof setTimeout>>();
const runStates: ReadonlySet<string> = new Set(RUN_STATES);
const isRunState = (value: unknown): value is RunState => typeof value === 'string' && runStates.has(value);

export const useRuns = create<RunsStore>((set, get) => ({
  order: [],
  byId: {},
  listLoaded: false,
  listError: null,
  details: {},
  detailErrors: {},
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
  async refreshList() {
    try {
      const { runs } = await requireClient().runs({ limit: 500 });
      set({
        order: runs.map((r) => r.id),
        byId: Object.fromEntries(runs.map((r) => [r.id, r])),
        listLoaded: true,
        listError: null,
      });
    } catch (error) {
      set({ listError: error instanceof Error ? error.message : String(error), listLoaded: true });
    }
    for (const id of Object.keys(get().details)) void get().loadRun(id);
  },
  async loadRun(id) {
    try {
      const detail = await requireClient().run(id);
      set((s) => ({
        details: { ...s.details, [id]: detail },
        detailErrors: omit(s.detailErrors, id),
        steps: { ...s.steps, [id]: mergeSteps(s.steps[id], detail.steps) },
        edgeTaken: { ...s.edgeTaken, [id]: sameRecord(s.edgeTaken[id], Object.fromEntries(detail.edges.map((e) => [e.id, e.taken]))) },
        edgeWhy: { ...s.edgeWhy, [id]: sameRecord(s.edgeWhy[id], Object.fromEntries(detail.edges.map((e) => [e.id, e.why]))) },
        byId: s.byId[id] === undefined ? s.byId : { ...s.byId, [id]: { ...s.byId[id], state: detail.run.state } },
      }));
    } catch (error) {
      set((s) => ({ detailErrors: { ...s.detailErrors, [id]: error instanceof Error ? error.message : String(error) } }));
    }
  },
  applyStream(messages) {
    let byId = get().byId;
    let order = get().order;
    let changed = false;
    for (const { event } of messages) {
      const runId = event.runId;
      if (event.type === 'run_created' && byId[runId] === undefined) {
        byId = {
          ...byId,
          [runId]: {
            id: runId,
            workflowId: event.data.workflowId,
            version: event.data.version,
            state: 'running',
            inputRevision: 1,
            createdAt: new Date(event.at).toISOString(),
            startedAtMs: event.at,
            updatedAtMs: event.at,
            endedAtMs: null,
            durationMs: 0,
            failure: null,
            parentRunId: null,
          },
        };
        order = [runId, ...order];
        changed = true;
      } else if (event.type === 'run_state_changed') {
        const state = event.data.state;
        const run = byId[runId];
        if (run !== undefined && isRunState(state)) {
          const endedAtMs = isFinishedRunState(state) ? event.at : null;
          byId = { ...byId, [runId]: { ...run, state, updatedAtMs: event.at, endedAtMs, durationMs: (endedAtMs ?? event.at) - run.startedAtMs } };
          changed = true;
        }
      }
      if (get().details[runId] !== undefined) scheduleRefetch(runId, () => void get().loadRun(runId));
    }
    if (changed) set({ byId, order });
  },
}));

function scheduleRefetch(runId: string, refetch: () => void): void {
  if (pending.has(runId)) return;
  pending.set(
    runId,
    setTimeout(() => {
      pending.delete(runId);
      refetch();
    }, REFETCH_MS),
  );
}

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
