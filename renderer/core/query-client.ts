// The app's one cache of server data (TanStack Query). The live stream keeps what it holds
// current (core/stream-sync.ts patches and invalidates it), so data is never stale by age:
// nothing refetches on focus or by timer unless a query says so (the runs list's first page and
// the task list poll for what the stream does not bring: see docs/runs.md). An engine's refusal
// (an ApiError) is an answer, not a glitch: only a failed connection is retried.
import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/http.ts';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: Infinity,
      gcTime: 5 * 60_000,
      refetchOnWindowFocus: false,
      refetchOnReconnect: false,
      retry: (failures, error) => !(error instanceof ApiError) && failures < 2,
    },
  },
});

/** An error as the pages show it: the engine's own words when it gave some. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
