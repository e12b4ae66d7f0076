// `GET /api/compare?a=RUN&b=RUN`: two runs side by side (shared/run/compare-runs.ts, the same
// comparison `weft compare --json` prints). Behind the same guards as every /api/ route
// (create-server.ts); the query is parsed with CompareQuery (400 with its path), and an unknown
// run is a 404 that names its side. Large values come as ElidedValue stubs that read back through
// `GET /api/runs/:id/value` (shared/run/elide-comparison.ts), so the answer stays small; and the
// comparison is computed on a worker thread over its own read-only connection to the store
// (engine/service/compare-worker.ts), so it never holds the engine's event loop.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { COMPARE_FIELD_LIMIT, COMPARE_VALUE_LIMIT, CompareQuery, type RunComparison } from '../../shared/api/run-comparison.ts';
import { CompareWorker } from '../service/compare-worker.ts';
import type { EngineService } from '../service/engine-service.ts';
import { parseCommand } from '../service/parse-command.ts';

/** `storePath`: the store the server's engine owns, which the worker reads. */
export function registerCompare(app: FastifyInstance, s: EngineService, storePath: string): void {
  // Where no worker can run, the service's own reader computes on this thread.
  const worker = new CompareWorker(storePath, (a, b, cut) => s.reader.runComparison(a, b, cut));
  app.addHook('onClose', () => worker.close());
  app.get('/api/compare', async (request: FastifyRequest): Promise<RunComparison> => {
    const { a, b } = parseCommand(CompareQuery, request.query, 'the query');
    return worker.compare(a, b, { valueLimit: COMPARE_VALUE_LIMIT, fieldLimit: COMPARE_FIELD_LIMIT });
  });
}
