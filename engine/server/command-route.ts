// `POST /api/commands`: a terminal's `weft` command on the store this server owns, as a typed
// command (shared/api/forwarded-command.ts): content only, never a path, a working folder, a
// store or a command line. It is performed as the CLI performs it on a store of its own
// (engine/service/perform-command.ts) and answered once the runs it drove have settled. Behind
// the same guards as every /api/ route (create-server.ts). Its body may be larger than other
// routes' (a definition and inputs as big as the files `weft` reads).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ForwardedCommand } from '../../shared/api/forwarded-command.ts';
import type { EngineService } from '../service/engine-service.ts';
import { parseCommand } from '../service/parse-command.ts';
import { performCommand } from '../service/perform-command.ts';

/** The largest command body: a 16 MiB definition file and 16 MiB inputs, as JSON, with room for escapes. */
export const COMMAND_BODY_LIMIT = 64 * 1024 * 1024;

export function registerCommands(app: FastifyInstance, s: EngineService): void {
  app.post('/api/commands', { bodyLimit: COMMAND_BODY_LIMIT }, async (request: FastifyRequest) => performCommand(s, parseCommand(ForwardedCommand, request.body, 'the command')));
}
