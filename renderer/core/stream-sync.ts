// What the live stream does to the cached server data: a watched run's events are appended to its
// events query (the timeline and time travel redraw from it), its detail and the runs lists are
// invalidated at most once per THROTTLE_MS (read again in the background, never cancelled by a
// newer event, so a run whose detail takes long to read still shows progress), a state change is
// patched into the runs lists at once, and a task event invalidates the task list.
import type { QueryClient } from '@tanstack/react-query';
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
      this.throttle(`detail:${runId}`, () => this.client.invalidateQueries({ queryKey: keys.runDetail(runId), exact: true }, { cancelRefetch: false }));
      if (events.some((e) => e.type === 'run_created' || e.type === 'run_state_changed')) {
        this.throttle('runs', () => this.client.invalidateQueries({ queryKey: keys.allRuns() }, { cancelRefetch: false }));
      }
      if (events.some((e) => TASK_EVENTS.has(e.type))) tasks = true;
    }
    if (tasks) this.throttle('tasks', () => this.client.invalidateQueries({ queryKey: keys.tasks() }, { cancelRefetch: false }));
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

  private throttle(key: string, run: () => Promise<void>): void {
    if (this.timers.has(key)) return;
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        void run();
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
