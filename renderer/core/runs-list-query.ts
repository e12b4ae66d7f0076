// The runs list as one infinite query per filter, paged from the server (`GET /api/runs`, newest
// first, `after` = the previous page's `next`) with its filters (workflow, state, text) done
// there. The stream patches a shown run's state at once and invalidates the pages holding it;
// runs new since the list was read are found by reading the list again every few seconds while it
// is shown (the app does not subscribe to every run's events: see docs/runs.md).
import { useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import type { RunSummary, RunSummaryPage } from '../api/api-types.ts';
import { requireClients } from '../api/clients.ts';
import { keys, type RunsFilter } from './query-keys.ts';

/** Runs a page of the list holds. */
export const RUNS_PAGE = 50;
/** How often a shown list is read again, for runs started since. */
export const RUNS_POLL_MS = 3000;

export type RunsData = InfiniteData<RunSummaryPage, string | null>;

/** The list's query; `poll` while a page shows it. */
export function useRunsList(filter: RunsFilter, { poll = false, limit = RUNS_PAGE, enabled = true }: { poll?: boolean; limit?: number; enabled?: boolean } = {}) {
  return useInfiniteQuery({
    queryKey: keys.runs(filter),
    queryFn: ({ pageParam }: { pageParam: string | null }) => requireClients().api.runs({ ...filter, limit, ...(pageParam === null ? {} : { after: pageParam }) }),
    initialPageParam: null as string | null,
    getNextPageParam: (page: RunSummaryPage) => page.next ?? undefined,
    refetchInterval: poll ? RUNS_POLL_MS : false,
    enabled,
  });
}

/** The rows of every page read so far (a run that moved between pages as the list changed is shown once). */
export function rowsOf(data: { pages: readonly RunSummaryPage[] } | undefined): RunSummary[] {
  if (data === undefined) return [];
  const seen = new Set<string>();
  const rows: RunSummary[] = [];
  for (const page of data.pages) {
    for (const run of page.runs) {
      if (seen.has(run.id)) continue;
      seen.add(run.id);
      rows.push(run);
    }
  }
  return rows;
}
