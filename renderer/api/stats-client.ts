// The workflow report (route `stats` of shared/api/routes.ts, `GET /api/stats/:workflowId?version=`,
// the same report as `weft stats --json`), made with callRoute and parsed with the route's schema.
// A workflow that has never run is not an error here: the engine answers 404 for it, and this
// gives null (the empty state).
import { callRoute, RouteCallError, type RouteClient } from '../../shared/api/call-route.ts';
import type { RouteAnswerOf } from '../../shared/api/routes.ts';
import { routeClient } from './http.ts';

export class StatsClient {
  private readonly client: RouteClient;

  constructor(token: string, base = '') {
    this.client = routeClient(token, base);
  }

  /**
   * The report of `workflowId` over all its runs, or over those of `version`; null when the
   * store has no run of it. `view.runs`: how many of the newest runs to list (the server's
   * default, STATS_RUNS, without it); `view.tz`: the viewer's Date#getTimezoneOffset(), which
   * the answer's `runsOverTime` is bucketed in.
   *
   * @example
   * const report = await new StatsClient(token).report('trip-saga');
   * if (report === null) showEmptyState();
   */
  async report(workflowId: string, version?: number, view: { runs?: number; tz?: number } = {}): Promise<RouteAnswerOf<'stats'> | null> {
    try {
      return await callRoute(this.client, 'stats', { params: { workflowId }, query: { version, runs: view.runs, tz: view.tz } });
    } catch (error) {
      if (error instanceof RouteCallError && error.status === 404 && error.code === 'not-found') return null;
      throw error;
    }
  }
}
