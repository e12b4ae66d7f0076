// The run timeline's reads, routes of shared/api/routes.ts made with callRoute: `runs.timeline`
// (the spans) and `runs.events` (the run's events page by page), for the attempt outcomes and
// markers. As in api-client.ts, every answer is parsed with the route's schema and an error body
// becomes an ApiError with its code, message and path.
import { callRoute, type RouteClient } from '../../shared/api/call-route.ts';
import { DETAIL_VALUE_LIMIT } from '../../shared/api/elided-value.ts';
import { MAX_EVENT_PAGE, type RunEventsPage } from '../../shared/api/event-page.ts';
import type { Timeline } from '../../shared/api/timeline.ts';
import { routeClient } from './http.ts';

/** A page of a run's events (seq order) and the seq to page on from, or null at the end. */
export type { RunEventsPage };

/** What the timeline hook reads; TimelineClient is the real one. */
export interface TimelineReads {
  timeline(runId: string): Promise<Timeline>;
  /** One page of the run's events after seq `after` (0: from the start). */
  events(runId: string, after: number, limit?: number): Promise<RunEventsPage>;
}

export class TimelineClient implements TimelineReads {
  private readonly client: RouteClient;

  constructor(token: string, base = '') {
    this.client = routeClient(token, base);
  }

  timeline(runId: string): Promise<Timeline> {
    return callRoute(this.client, 'runs.timeline', { params: { id: runId } });
  }

  events(runId: string, after: number, limit = MAX_EVENT_PAGE): Promise<RunEventsPage> {
    // Values over 64 KiB come as stubs (fetched by path when shown), so a run whose events hold
    // megabytes opens as fast as one that holds none.
    return callRoute(this.client, 'runs.events', { params: { id: runId }, query: { after, limit, elide: DETAIL_VALUE_LIMIT } });
  }
}
