// How the app's API clients reach the engine: every call is a route of the one table
// (shared/api/routes.ts), made by callRoute (shared/api/call-route.ts) with the route's method,
// path, query, body and answer schema; no client writes a path or picks a schema. This file gives
// the clients their RouteClient (the engine's origin, the token, the browser's fetch: the one
// fetch of renderer/, test/lint/api-paths.test.ts keeps it so) and the one error class.
import { RouteCallError, type FetchLike, type RouteClient } from '../../shared/api/call-route.ts';

/**
 * A refused or failed call: the engine's error code, message and the path of the bad input (or
 * `http-error`, `bad-answer`). The same class as callRoute's RouteCallError, by the name the app
 * has always used.
 */
export { RouteCallError as ApiError };

export type { FetchLike };

/** The RouteClient of a client built on `token`: `base` '' calls the page's own origin, `fetchFn` the browser's fetch unless a test gives one. */
export function routeClient(token: string, base = '', fetchFn: FetchLike = (url, init) => fetch(url, init)): RouteClient {
  return { base, token, fetch: fetchFn };
}
