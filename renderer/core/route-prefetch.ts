// The data of the page being opened, asked for at once: a page whose code is a chunk of its own
// (the editor) would otherwise ask only once that chunk has arrived and run, one round trip
// after the other. The page's own query then finds the answer in the cache or on its way
// (the cache never counts data stale by age: core/query-client.ts). A run page opened by its
// address is read ahead by the session itself (start-session.ts, prefetchRunPage), which also
// watches that run from the stream's first subscription.
import { queryClient } from './query-client.ts';
import { useRoute, type Route } from './route-store.ts';
import { workflowDetailQuery } from './workflow-queries.ts';

/** Starts the fetch of what the route's page shows first; errors are the page's to show. */
export function prefetchRouteData(route: Route): void {
  if (route.page === 'workflow') void queryClient.prefetchQuery(workflowDetailQuery(route.id));
}

/** Prefetches for the route now and for every route the app goes to; returns the unsubscribe. */
export function prefetchFollowingRoutes(): () => void {
  prefetchRouteData(useRoute.getState().route);
  return useRoute.subscribe((state, before) => {
    if (state.route !== before.route) prefetchRouteData(state.route);
  });
}
