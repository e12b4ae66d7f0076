// The app's call that compares two runs (route `compare` of shared/api/routes.ts, made with
// callRoute). As in api-client.ts, the answer is parsed with the route's schema and an error body
// becomes an ApiError with its code, message and path (a 404 `not-found` names the side, A or B,
// whose run is unknown).
import { callRoute, type RouteClient } from '../../shared/api/call-route.ts';
import type { RouteAnswerOf } from '../../shared/api/routes.ts';
import { routeClient } from './http.ts';

export class CompareClient {
  private readonly client: RouteClient;

  constructor(token: string, base = '') {
    this.client = routeClient(token, base);
  }

  /**
   * Runs `a` and `b` (ids or unique prefixes) side by side.
   *
   * @example
   * const c = await new CompareClient(token).compare(runA, runB);
   * c.firstDifference?.kind; // 'path'
   */
  compare(a: string, b: string): Promise<RouteAnswerOf<'compare'>> {
    return callRoute(this.client, 'compare', { query: { a, b } });
  }
}
