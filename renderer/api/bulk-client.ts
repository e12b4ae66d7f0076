// The app's bulk calls (routes `bulk.preview` and `bulk.apply` of shared/api/routes.ts, made with
// callRoute): what an action would do to each selected run, and the action done to a few runs at a
// time, so the runs list can show progress run by run (docs/evolution.md, "Bulk actions").
import type { z } from 'zod';
import type { BulkRequest, BulkResult } from '../../shared/api/bulk-action.ts';
import { callRoute, type RouteClient } from '../../shared/api/call-route.ts';
import { routeClient } from './http.ts';

export class BulkClient {
  private readonly client: RouteClient;

  constructor(token: string, base = '') {
    this.client = routeClient(token, base);
  }

  /** What `request` would do to each run it selects, or why a run is refused; nothing is written. */
  preview(request: z.input<typeof BulkRequest>): Promise<BulkResult> {
    return callRoute(this.client, 'bulk.preview', { body: request });
  }

  /** Acts on the runs `request` names; each row says done (with the run's state) or refused and why. */
  apply(request: z.input<typeof BulkRequest>): Promise<BulkResult> {
    return callRoute(this.client, 'bulk.apply', { body: request });
  }
}
