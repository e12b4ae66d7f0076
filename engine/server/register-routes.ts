// The server's routes, registered from the one table of shared/api/routes.ts: each route's method,
// path and body limit come from its entry, its path parameters and query are parsed with the
// entry's schemas (400 `bad-input` with the JSON path, parseCommand's error), and its body goes on
// unparsed to the service, which parses every command once. A handler per route id does the rest;
// RouteHandlers is a mapped type over the table, so a route without a handler, a handler for no
// route, or a handler answering the wrong type is a type error.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HTTP_ROUTE_IDS, ROUTES, type HttpRouteId, type RouteAnswerOf, type RouteBodyOf, type RouteParamsOf, type RouteQueryOf, type Routes, type RouteSpec } from '../../shared/api/routes.ts';
import { Unparsed } from '../../shared/api/unparsed.ts';
import { JsonText } from '../service/json-text.ts';
import { parseCommand } from '../service/parse-command.ts';

/** What a route's handler receives: its path parameters and query parsed, its body as it came. */
export interface RouteInput<K extends HttpRouteId> {
  params: RouteParamsOf<K>;
  query: RouteQueryOf<K>;
  body: RouteBodyOf<K>;
}

/** What a handler may set on its answer besides the body. */
export interface AnswerControl {
  /** A success status the route's table entry lists (201 for a run created, …). */
  status(code: number): void;
}

/** The answer of a download route: a file's bytes and the name to save them under. */
export interface Download {
  fileName: string;
  bytes: Uint8Array;
}

/** What route K's handler resolves to: its answer, or for a download the file. */
export type RouteResult<K extends HttpRouteId> = Routes[K] extends { kind: 'download' } ? Download : RouteAnswerOf<K>;

/** A handler's answer: the value, or (from the read worker) the value already encoded as JSON. */
type Answered<K extends HttpRouteId> = RouteResult<K> | JsonText<RouteResult<K>>;

export type RouteHandler<K extends HttpRouteId> = (input: RouteInput<K>, answer: AnswerControl) => Answered<K> | Promise<Answered<K>>;

/** One handler per HTTP route of the table, by route id. */
export type RouteHandlers = { [K in HttpRouteId]: RouteHandler<K> };

/**
 * Registers every HTTP route of the table on `app` with its handler.
 *
 * @example
 * registerRoutes(app, { health: () => ({ version, workspace, store }), ... });
 */
export function registerRoutes(app: FastifyInstance, handlers: RouteHandlers): void {
  for (const id of HTTP_ROUTE_IDS) register(app, id, handlers);
}

function register<K extends HttpRouteId>(app: FastifyInstance, id: K, handlers: RouteHandlers): void {
  const handler: RouteHandler<K> = handlers[id];
  const options: RouteSpec = ROUTES[id];
  app.route({
    method: options.method,
    url: options.path,
    ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const result = await handler(parsedInput(id, request), { status: (code) => void reply.code(code) });
      if (result instanceof JsonText) return reply.type('application/json; charset=utf-8').send(result.text);
      if (options.kind !== 'download' || !isDownload(result)) return result;
      // The id is a slug, so the name needs no quoting beyond the quotes.
      reply.header('content-disposition', `attachment; filename="${result.fileName}"`);
      reply.type('application/json; charset=utf-8');
      return reply.send(Buffer.from(result.bytes));
    },
  });
}

/** Route K's path parameters and query, parsed with its table entry's schemas; its body as it came. */
function parsedInput<K extends HttpRouteId>(id: K, request: FastifyRequest): RouteInput<K>;
// TypeScript reads a property of ROUTES[K] as the union over every route, so the signature above
// states what this implementation does for each route alike: parts parsed with route K's schemas
// are route K's input.
function parsedInput(id: HttpRouteId, request: FastifyRequest): RouteInput<HttpRouteId> {
  const spec = ROUTES[id];
  return {
    params: parseCommand(spec.params.schema, request.params, spec.params.what),
    query: parseCommand(spec.query.schema, request.query, spec.query.what),
    body: new Unparsed(request.body),
  };
}

function isDownload(value: unknown): value is Download {
  return typeof value === 'object' && value !== null && 'fileName' in value && 'bytes' in value && value.bytes instanceof Uint8Array;
}
