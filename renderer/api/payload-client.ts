// The JSON view's calls for large values: route `runs.value` of shared/api/routes.ts (made with
// callRoute), a value of a run by its value path, whole or level by level (docs/payloads.md).
// RunDetail ships ElidedValue stubs for values over 64 KiB; the view fetches what the user opens.
// As in api-client.ts, the answer is parsed with the route's schema and an error body becomes an
// ApiError.
import { callRoute, type RouteClient } from '../../shared/api/call-route.ts';
import type { RouteAnswerOf } from '../../shared/api/routes.ts';
import { routeClient } from './http.ts';

/** How much of the value to send: `depth` levels (deeper large containers as stubs), a slice of its entries. */
export interface ValueCut {
  depth?: number;
  offset?: number;
  limit?: number;
}

export class PayloadClient {
  private readonly client: RouteClient;

  constructor(token: string, base = '') {
    this.client = routeClient(token, base);
  }

  /**
   * The value at `path` in run `runId`.
   *
   * @example
   * const page = await payloads.value(runId, stub.path, { depth: 1, limit: 500 });
   * page.total; // entries of the whole value; page.value holds those from page.offset on
   */
  value(runId: string, path: string, cut: ValueCut = {}, signal?: AbortSignal): Promise<RouteAnswerOf<'runs.value'>> {
    const query = { path, depth: cut.depth, offset: cut.offset, limit: cut.limit };
    return callRoute(this.client, 'runs.value', { params: { id: runId }, query }, signal);
  }

  /**
   * The value kept by reference at `path` in run `runId` (docs/long-running.md); opening a
   * sensitive one is recorded in the run's log, as opened by `by` (the server's user when left out).
   *
   * @example
   * const { value } = await payloads.openArtifact(runId, 'steps.lookup.attempts[0].output.iban');
   */
  openArtifact(runId: string, path: string, by?: string): Promise<RouteAnswerOf<'runs.openArtifact'>> {
    return callRoute(this.client, 'runs.openArtifact', { params: { id: runId }, body: { path, ...(by === undefined ? {} : { by }) } });
  }
}
