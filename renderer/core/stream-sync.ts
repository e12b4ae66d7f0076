// What the live stream does to the cached server data: a watched run's events are appended to its
// events query (the timeline and time travel redraw from it), its detail and the runs lists are
// invalidated at most once per THROTTLE_MS (read again in the background, never cancelled by a
// newer event, so a run whose detail takes long to read still shows progress), a state change is
// patched into the runs lists at once, and a task event invalidates the task list.
//
// A read still running when events come may have read the store before them, and TanStack Query
// does not read again after it (an invalidation with cancelRefetch false joins the running read,
// whose success then clears the mark): so the next read waits for it to end. Without this, on a
// busy machine a run page could keep showing a step as blocked after it went on.
import type { InvalidateQueryFilters, QueryClient } from '@tanstack/react-query';
import type { RunSummary, StreamMessage } from '../api/api-types.ts';
import type { RunEventRecord } from '../../shared/api/run-event-record.ts';
import { isFinishedRunState, RUN_STATES, type RunState } from '../../shared/definition/names.ts';
import { MAX_EVENT_PAGE } from '../../shared/api/event-page.ts';
import { keys } from './query-keys.ts';
import { lastSeqOf, readOnFrom, type EventsData } from './run-queries.ts';
import type { RunsData } from './runs-list-query.ts';

/** Longest wait between an event and the background read of what it changed. */
export const THROTTLE_MS = 500;
const TASK_EVENTS = new Set(['task_opened', 'task_decided', 'task_reassigned', 'deadline_passed', 'run_state_changed']);
const runStates: ReadonlySet<string> = new Set(RUN_STATES);
const isRunState = (value: unknown): value is RunState => typeof value === 'string' && runStates.has(value);

export class StreamSync {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(private readonly client: QueryClient) {}

  stop(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  apply(messages: readonly StreamMessage[]): void {
    const byRun = new Map<string, RunEventRecord[]>();
    for (const { event } of messages) {
      const list = byRun.get(event.runId);
      if (list === undefined) byRun.set(event.runId, [event]);
      else list.push(event);
    }
    let tasks = false;
    for (const [runId, events] of byRun) {
      this.client.setQueryData<EventsData>(keys.runEvents(runId), (data) => (data === undefined ? data : appendEvents(data, events)));
      this.patchRuns(runId, events);
      this.refresh(`detail:${runId}`, { queryKey: keys.runDetail(runId), exact: true });
      if (events.some((e) => e.type === 'run_created' || e.type === 'run_state_changed')) this.refresh('runs', { queryKey: keys.allRuns() });
      if (events.some((e) => TASK_EVENTS.has(e.type))) tasks = true;
    }
    if (tasks) this.refresh('tasks', { queryKey: keys.tasks() });
  }

  /** A state change shows in every list holding the run at once; the lists are read again later. */
  private patchRuns(runId: string, events: readonly RunEventRecord[]): void {
    const change = events.findLast((e) => e.type === 'run_state_changed');
    if (change === undefined || change.type !== 'run_state_changed' || !isRunState(change.data.state)) return;
    const state = change.data.state;
    const at = change.at;
    const patch = (run: RunSummary): RunSummary => {
      const endedAtMs = isFinishedRunState(state) ? at : null;
      return { ...run, state, updatedAtMs: at, endedAtMs, durationMs: (endedAtMs ?? at) - run.startedAtMs };
    };
    for (const [key, data] of this.client.getQueriesData<RunsData>({ queryKey: keys.allRuns() })) {
      if (data === undefined || !data.pages.some((p) => p.runs.some((r) => r.id === runId))) continue;
      this.client.setQueryData<RunsData>(key, { ...data, pages: data.pages.map((p) => (p.runs.some((r) => r.id === runId) ? { ...p, runs: p.runs.map((r) => (r.id === runId ? patch(r) : r)) } : p)) });
    }
  }

  /**
   * Reads the queries `filters` names again within THROTTLE_MS of now: once for a burst of events,
   * and only once no read of them is running (one running may predate the events; see the top).
   */
  private refresh(key: string, filters: InvalidateQueryFilters): void {
    if (this.timers.has(key)) return;
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        if (this.client.isFetching(filters) > 0) this.refresh(key, filters);
        else void this.client.invalidateQueries(filters, { cancelRefetch: false });
      }, THROTTLE_MS),
    );
  }
}

/**
 * The cached log with the streamed events appended: those it holds already are dropped, and a
 * gap (events missing between the cache's end and the first new one) marks the log to be read on
 * from its end instead. A log still paging in is left to its pager.
 */
export function appendEvents(data: EventsData, events: readonly RunEventRecord[]): EventsData {
  const last = data.pages.at(-1);
  if (last === undefined || last.next !== null) return data;
  let seq = lastSeqOf(data);
  const fresh: RunEventRecord[] = [];
  for (const event of events) {
    if (event.seq <= seq) continue;
    if (event.seq !== seq + 1) return readOnFrom(data);
    fresh.push(event);
    seq = event.seq;
  }
  if (fresh.length === 0) return data;
  // A full last page gets a page after it, so no append copies more than a page.
  if (last.events.length + fresh.length > MAX_EVENT_PAGE) {
    const from = lastSeqOf(data);
    return { pages: [...data.pages.slice(0, -1), { ...last, next: from }, { events: fresh, next: null }], pageParams: [...data.pageParams, from] };
  }
  return { pages: [...data.pages.slice(0, -1), { events: [...last.events, ...fresh], next: null }], pageParams: data.pageParams };
}
