// One run as queries: its detail (`GET /api/runs/:id`), and its event log as ONE infinite query
// (`GET /api/runs/:id/events`, page by page) that the timeline and time travel share. The log is
// paged in once; after that the stream appends to it (core/stream-sync.ts) and a gap (a dropped
// frame, a resync, a detail that knows a later seq) is read from where the log ends: it is never
// refetched from the start while it is cached.
//
// A run page's first view needs three reads: the detail, the first events page and the workflow
// file (its layout). They are asked together: the workflow's id comes from the log's first event
// (run_created), which the first events page carries long before the much larger detail has been
// read, and the rest of the log is paged in only once the detail is in (docs/bench-app.md).
import { useEffect, useMemo } from 'react';
import { useInfiniteQuery, useQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { RunDetail } from '../api/api-types.ts';
import type { RunEventRecord } from '../../shared/api/run-event-record.ts';
import type { StepAttemptsPage } from '../../shared/api/step-attempts.ts';
import type { RunEventsPage, TimelineReads } from '../api/timeline-client.ts';
import { requireClients } from '../api/clients.ts';
import { keys } from './query-keys.ts';
import { queryClient, messageOf } from './query-client.ts';
import { workflowDetailQuery } from './workflow-queries.ts';

export const runDetailQuery = (id: string) => ({
  queryKey: keys.runDetail(id),
  queryFn: (): Promise<RunDetail> => requireClients().api.run(id),
});

export function useRunDetail(id: string) {
  return useQuery(runDetailQuery(id));
}

/** How many older attempts one click of the step inspector reads. */
export const OLDER_ATTEMPTS_PAGE = 50;

/**
 * A step's attempts older than those its detail carries, paged back from place `anchor` (the
 * detail's first attempt's place when they were asked for); nothing is read while `anchor` is
 * null. Attempts older than the detail's latest are finished, so what was read is kept.
 */
export function useOlderAttempts(runId: string, stepId: string, anchor: number | null) {
  return useInfiniteQuery({
    queryKey: keys.stepAttempts(runId, stepId, anchor ?? -1),
    queryFn: ({ pageParam }) => requireClients().api.stepAttempts(runId, stepId, pageParam, OLDER_ATTEMPTS_PAGE),
    initialPageParam: anchor ?? 0,
    getNextPageParam: (last: StepAttemptsPage) => last.before ?? undefined,
    enabled: anchor !== null && anchor > 0,
    staleTime: Infinity,
  });
}

/** The detail read again now (after an action on the run), without waiting for the stream. */
export function refetchRunDetail(id: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: keys.runDetail(id), exact: true });
}

export type EventsData = InfiniteData<RunEventsPage, number>;

/** The run's event log as one infinite query: the timeline, time travel and the prefetch share it. */
export const runEventsQuery = (runId: string, reads: TimelineReads) => ({
  queryKey: keys.runEvents(runId),
  queryFn: ({ pageParam }: { pageParam: number }) => reads.events(runId, pageParam),
  initialPageParam: 0,
  getNextPageParam: (page: RunEventsPage) => page.next ?? undefined,
  gcTime: 30_000,
});

/** The workflow and version a run runs, as its log's first event (run_created) names them; null before that page is read. */
export function runOriginOf(data: EventsData | undefined): { workflowId: string; version: number } | null {
  const first = data?.pages[0]?.events[0];
  return first?.type === 'run_created' ? { workflowId: first.data.workflowId, version: first.data.version } : null;
}

const selectWorkflowId = (data: EventsData): string | null => runOriginOf(data)?.workflowId ?? null;

/**
 * The run's workflow id from its first events page: known before its detail is read, so the
 * workflow file can be asked for alongside the detail instead of after it.
 */
export function useRunWorkflowId(runId: string, reads: TimelineReads = requireClients().timeline): string | undefined {
  // Selected: the page re-renders when the id is learnt, not at each page or event read after it.
  return useInfiniteQuery({ ...runEventsQuery(runId, reads), select: selectWorkflowId }).data ?? undefined;
}

/**
 * A run page is being opened (the app starts at its address): its workflow file, its detail and
 * its log's first page are asked now, while the page's code is still loading, and the page's
 * queries find them read or in flight. The workflow's id comes from the log's first event, read
 * alone first (a few hundred bytes, answered before the 1.6 MB detail of a 1,000-step run), so the
 * file and the detail are read in parallel.
 */
export function prefetchRunPage(runId: string, cache: QueryClient = queryClient): void {
  const reads = requireClients().timeline;
  void reads.events(runId, 0, 1).then(
    (page) => {
      const origin = runOriginOf({ pages: [page], pageParams: [0] });
      if (origin !== null) void cache.prefetchQuery(workflowDetailQuery(origin.workflowId));
    },
    // The page's own reads report what is wrong (no such run, a refused token).
    () => {},
  );
  void cache.prefetchQuery(runDetailQuery(runId));
  void cache.prefetchInfiniteQuery(runEventsQuery(runId, reads));
}

/** The seq of the last event the cached log holds (0 when it holds none). */
export function lastSeqOf(data: EventsData): number {
  for (let i = data.pages.length - 1; i >= 0; i--) {
    const last = data.pages[i]?.events.at(-1);
    if (last !== undefined) return last.seq;
  }
  return 0;
}

/** Where the log ends, marked as "more to read" so the pager reads from there (nothing when it is paging already). */
export function readOnFrom(data: EventsData): EventsData {
  const last = data.pages.at(-1);
  if (last === undefined || last.next !== null) return data;
  return { pages: [...data.pages.slice(0, -1), { ...last, next: lastSeqOf(data) }], pageParams: data.pageParams };
}

/** The run's log is known to reach `seq` (its detail says so): read on to it if the cache ends before. */
export function extendRunEvents(runId: string, seq: number, cache: QueryClient = queryClient): void {
  cache.setQueryData<EventsData>(keys.runEvents(runId), (data) => (data === undefined || lastSeqOf(data) >= seq ? data : readOnFrom(data)));
}

export interface RunEventsState {
  /** The log read so far, in seq order. */
  events: RunEventRecord[];
  /** True while pages are still to be read. */
  paging: boolean;
  /** True once the first page is in. */
  started: boolean;
  error: string | null;
}

/**
 * The run's event log, paged in to its end and kept current by the stream. `reads` is the client
 * (tests pass their own); `knownSeq` the last seq the run's detail reports, if known. With
 * `pageOn` false only the first page is read: the run page holds the pages after it until its
 * detail is in, which its first view needs more (their reading would share the main thread).
 *
 * @example
 * const { events, paging } = useRunEvents(runId, clients.timeline, detail?.run.lastSeq ?? null);
 */
export function useRunEvents(runId: string, reads: TimelineReads, knownSeq: number | null, pageOn = true): RunEventsState {
  const query = useInfiniteQuery(runEventsQuery(runId, reads));
  const cache = useQueryClient();
  const { hasNextPage, isFetching, fetchNextPage, data } = query;
  // Page on to the end: one page at a time, whoever else reads the same log.
  useEffect(() => {
    if (pageOn && hasNextPage && !isFetching) void fetchNextPage({ cancelRefetch: false });
  }, [pageOn, hasNextPage, isFetching, fetchNextPage]);
  useEffect(() => {
    if (knownSeq !== null) extendRunEvents(runId, knownSeq, cache);
  }, [runId, knownSeq, data, cache]);
  const events = useMemo(() => data?.pages.flatMap((p) => p.events) ?? [], [data]);
  return { events, paging: data === undefined || hasNextPage, started: data !== undefined, error: query.error === null ? null : messageOf(query.error) };
}
