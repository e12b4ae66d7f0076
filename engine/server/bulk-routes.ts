// The bulk routes (docs/api.md, docs/evolution.md "Bulk actions"): `POST /api/bulk/preview` says
// per run what a bulk action would do, writing nothing; `POST /api/bulk/apply` acts on the runs
// and answers one row per run once each has settled. No job is kept on the server: a client that
// shows progress applies the previewed runs a few at a time (`runs` of each request), so an
// interrupted page or a stopped server leaves every run either acted on or not, and the rows say which.
import { bulkApply, bulkPreview } from '../service/bulk-run.ts';
import type { EngineService } from '../service/engine-service.ts';
import type { RouteHandlers } from './register-routes.ts';

export function bulkHandlers(s: EngineService): Pick<RouteHandlers, 'bulk.preview' | 'bulk.apply'> {
  return {
    'bulk.preview': ({ body }) => bulkPreview(s.reader, body, s.committedNow()),
    'bulk.apply': ({ body }) => bulkApply(s, body),
  };
}
