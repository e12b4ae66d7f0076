// `GET /api/compare?a=RUN&b=RUN`: two runs side by side (shared/run/compare-runs.ts, the same
// comparison `weft compare --json` prints). Behind the same guards as every /api/ route
// (create-server.ts); the query is parsed with CompareQuery (400 with its path), and an unknown
// run is a 404 that names its side. Large values come as ElidedValue stubs that read back through
// `GET /api/runs/:id/value` (shared/run/elide-comparison.ts), so the answer stays small; and the
// comparison is computed on a worker thread over its own read-only connection to the store
// (engine/service/compare-worker.ts), so it never holds the engine's event loop.
import type { FastifyInstance } from 'fastify';
import { COMPARE_FIELD_LIMIT, COMPARE_VALUE_LIMIT } from '../../shared/api/run-comparison.ts';
import { CompareWorker } from '../service/compare-worker.ts';
import type { EngineService } from '../service/engine-service.ts';
import type { RouteHandlers } from './register-routes.ts';

/** `storePath`: the store the server's engine owns (a path or a PostgreSQL URL), which the worker reads; the worker ends with `app`. */
export function compareHandler(app: FastifyInstance, s: EngineService, storePath: string): Pick<RouteHandlers, 'compare'> {
  // Where no worker can run, the service's own reader computes on this thread.
  const worker = new CompareWorker(storePath, (a, b, cut) => s.reader.runComparison(a, b, cut), undefined, s.files.root);
  app.addHook('onClose', () => worker.close());
  return { compare: ({ query }) => worker.compare(query.a, query.b, { valueLimit: COMPARE_VALUE_LIMIT, fieldLimit: COMPARE_FIELD_LIMIT }) };
}
