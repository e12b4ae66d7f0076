// `GET /api/runs/:id/value?path=&depth=&offset=&limit=`: one value of a run by its value path, so
// the app opens inputs and outputs of several megabytes level by level instead of receiving them
// in RunDetail (which ships ElidedValue stubs for them). Behind the same guards as every /api/
// route (create-server.ts); the query is parsed with shared/api/run-value.ts, the reading is the
// service's (RunReader.runValue: 400 for a malformed path, 404 for a path to nothing).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { RunId } from '../../shared/api/api-ids.ts';
import { RunValueQuery } from '../../shared/api/run-value.ts';
import type { EngineService } from '../service/engine-service.ts';
import { parseCommand } from '../service/parse-command.ts';

const RunParams = z.strictObject({ id: RunId });


export function registerRunValues(app: FastifyInstance, s: EngineService): void {
  app.get('/api/runs/:id/value', async (request: FastifyRequest) => {
    const { id } = parseCommand(RunParams, request.params, 'the run id');
    return s.runValue(id, parseCommand(RunValueQuery, request.query, 'the query'));
  });
}
