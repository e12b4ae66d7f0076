// What the live stream does to the app's query cache (renderer/core/stream-sync.ts), on a real
// TanStack QueryClient with counting fetchers: streamed events are appended to the run's one
// events query (duplicates dropped, a gap read from where the log ends), a run's detail is read
// again at most once per THROTTLE_MS however many events come (not once per event, as the runs
// store did), a state change shows in the runs lists at once, and task events re-read the tasks.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InfiniteQueryObserver, QueryClient, QueryObserver } from '@tanstack/react-query';
import type { RunEventRecord } from '../../../shared/api/run-event-record.ts';
import type { RunSummaryPage } from '../../../shared/api/run-summary.ts';
import type { RunEventsPage } from '../../../renderer/api/timeline-client.ts';
import type { StreamMessage } from '../../../renderer/api/api-types.ts';
import { appendEvents, StreamSync, THROTTLE_MS } from '../../../renderer/core/stream-sync.ts';
import { keys } from '../../../renderer/core/query-keys.ts';
import type { EventsData } from '../../../renderer/core/run-queries.ts';
import { MAX_EVENT_PAGE } from '../../../shared/api/event-page.ts';

const ev = (runId: string, seq: number, type = 'step_activated', data: unknown = {}): RunEventRecord => ({ runId, seq, at: 1_000 + seq, type, step: 'a', data }) as unknown as RunEventRecord;
const msg = (e: RunEventRecord, cursor: number): StreamMessage => ({ cursor, event: e });
const log = (seqs: number[], next: number | null = null): EventsData => ({ pages: [{ events: seqs.map((s) => ev('r1', s)), next }], pageParams: [0] });
const seqsOf = (d: EventsData): number[] => d.pages.flatMap((p) => p.events.map((e) => e.seq));

describe('appendEvents', () => {
  it('appends new events in seq order and drops those it holds', () => {
    const out = appendEvents(log([1, 2, 3]), [ev('r1', 2), ev('r1', 3), ev('r1', 4), ev('r1', 5)]);
    expect(seqsOf(out)).toEqual([1, 2, 3, 4, 5]);
    expect(out.pages.at(-1)?.next).toBeNull();
    const same = log([1, 2]);
    expect(appendEvents(same, [ev('r1', 1), ev('r1', 2)])).toBe(same);
  });

  it('marks a gap to be read from where the log ends, instead of appending past it', () => {
    const out = appendEvents(log([1, 2]), [ev('r1', 5)]);
    expect(seqsOf(out)).toEqual([1, 2]);
    expect(out.pages.at(-1)?.next).toBe(2);
  });

  it('leaves a log still paging in to its pager', () => {
    const paging = log([1, 2], 2);
    expect(appendEvents(paging, [ev('r1', 3)])).toBe(paging);
  });

  it('starts a page after a full one, so an append never copies more than a page', () => {
    const full = log(Array.from({ length: MAX_EVENT_PAGE }, (_, i) => i + 1));
    const out = appendEvents(full, [ev('r1', MAX_EVENT_PAGE + 1)]);
    expect(out.pages).toHaveLength(2);
    expect(out.pages[0]?.events).toBe(full.pages[0]?.events);
    expect(out.pageParams).toEqual([0, MAX_EVENT_PAGE]);
    expect(seqsOf(out)).toHaveLength(MAX_EVENT_PAGE + 1);
  });
});

describe('StreamSync', () => {
  let client: QueryClient;
  let sync: StreamSync;
  beforeEach(() => {
    vi.useFakeTimers();
    client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
    sync = new StreamSync(client);
  });
  afterEach(() => {
    sync.stop();
    client.clear();
    vi.useRealTimers();
  });

  it('reads a run’s detail again once per THROTTLE_MS however many events arrive, and appends them to its events query', async () => {
    let detailReads = 0;
    const detail = new QueryObserver(client, { queryKey: keys.runDetail('r1'), queryFn: async () => ({ reads: ++detailReads }) });
    const stopDetail = detail.subscribe(() => {});
    const events = new InfiniteQueryObserver(client, {
      queryKey: keys.runEvents('r1'),
      initialPageParam: 0,
      queryFn: async (): Promise<RunEventsPage> => ({ events: [ev('r1', 1)], next: null }),
      getNextPageParam: (p: RunEventsPage) => p.next ?? undefined,
    });
    const stopEvents = events.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(0);
    expect(detailReads).toBe(1);

    // 100 frames within one throttle window: one read of the detail, not 100.
    for (let seq = 2; seq <= 101; seq++) sync.apply([msg(ev('r1', seq), seq)]);
    expect(detailReads).toBe(1);
    await vi.advanceTimersByTimeAsync(THROTTLE_MS);
    expect(detailReads).toBe(2);
    await vi.advanceTimersByTimeAsync(THROTTLE_MS * 4);
    expect(detailReads).toBe(2);
    expect(seqsOf(client.getQueryData<EventsData>(keys.runEvents('r1')) ?? { pages: [], pageParams: [] })).toEqual(Array.from({ length: 101 }, (_, i) => i + 1));
    stopDetail();
    stopEvents();
  });

  it('reads the detail again after a read that was running when events came: that read may have read the store before them', async () => {
    // Each read of the detail waits for the test to let it finish, as a read on a busy machine.
    const pending: (() => void)[] = [];
    let detailReads = 0;
    const detail = new QueryObserver(client, {
      queryKey: keys.runDetail('r1'),
      queryFn: () =>
        new Promise<{ reads: number }>((resolve) => {
          const reads = ++detailReads;
          pending.push(() => resolve({ reads }));
        }),
    });
    const stop = detail.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(0);
    pending.shift()?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(detailReads).toBe(1);

    sync.apply([msg(ev('r1', 2), 2)]);
    await vi.advanceTimersByTimeAsync(THROTTLE_MS);
    expect(detailReads).toBe(2); // read 2 starts, and is still running when…
    sync.apply([msg(ev('r1', 3), 3)]); // …event 3 comes, which read 2 may not have seen
    await vi.advanceTimersByTimeAsync(THROTTLE_MS * 3);
    expect(detailReads).toBe(2); // read 2 is not cancelled: a slow detail still shows progress
    pending.shift()?.();
    await vi.advanceTimersByTimeAsync(THROTTLE_MS);
    expect(detailReads).toBe(3); // and once it ends, the detail is read again
    pending.shift()?.();
    await vi.advanceTimersByTimeAsync(THROTTLE_MS * 4);
    expect(detailReads).toBe(3); // nothing came after read 3 started: no further read
    expect(detail.getCurrentResult().data).toEqual({ reads: 3 });
    stop();
  });

  it('patches a run’s state into every runs list holding it at once, and does not touch runs it does not hold', async () => {
    const row = { id: 'r1', workflowId: 'w', version: 1, state: 'running' as const, inputRevision: 1, createdAt: new Date(1000).toISOString(), startedAtMs: 1000, updatedAtMs: 1000, endedAtMs: null, durationMs: 0, failure: null, parentRunId: null };
    const page: RunSummaryPage = { runs: [row], next: null };
    client.setQueryData(keys.runs({}), { pages: [page], pageParams: [null] });
    client.setQueryData(keys.runs({ workflow: 'other' }), { pages: [{ runs: [], next: null }], pageParams: [null] });
    const other = client.getQueryData(keys.runs({ workflow: 'other' }));
    sync.apply([msg(ev('r1', 7, 'run_state_changed', { state: 'succeeded' }), 7)]);
    const after = client.getQueryData<{ pages: RunSummaryPage[] }>(keys.runs({}));
    expect(after?.pages[0]?.runs[0]).toMatchObject({ id: 'r1', state: 'succeeded', endedAtMs: 1007, durationMs: 7 });
    expect(client.getQueryData(keys.runs({ workflow: 'other' }))).toBe(other);
  });

  it('re-reads the task list after a task event, once for a burst', async () => {
    let taskReads = 0;
    const tasks = new QueryObserver(client, { queryKey: keys.tasks(), queryFn: async () => ++taskReads });
    const stop = tasks.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(0);
    sync.apply([msg(ev('r1', 1, 'step_activated'), 1)]);
    await vi.advanceTimersByTimeAsync(THROTTLE_MS);
    expect(taskReads).toBe(1);
    sync.apply([msg(ev('r1', 2, 'task_opened'), 2), msg(ev('r2', 1, 'task_opened'), 3)]);
    sync.apply([msg(ev('r2', 2, 'task_decided'), 4)]);
    await vi.advanceTimersByTimeAsync(THROTTLE_MS);
    expect(taskReads).toBe(2);
    stop();
  });
});
