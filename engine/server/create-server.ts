// The HTTP and WebSocket server of `weft serve`, on fastify (routing, body parsing and limits)
// with @fastify/websocket (ws) and @fastify/static. Every request passes, in order: the Host check
// (one Host header, 400; naming this server, 421), the Origin check (403), and for /api/ the token
// (401), in request-guards.ts, which a URL the router refuses meets too. The API's routes come
// from the one table of shared/api/routes.ts (register-routes.ts): path parameters and query are
// parsed with the table's schemas, bodies by the service (400 with the JSON path). Errors always come
// as {"error": {"code", "message", "path"?}}. The app's static files need no token and hold no
// data; a refused static path (a dotfile, a folder, "..") is 404 like a missing one.
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { cacheHashedAssets } from './asset-cache.ts';
import fastifyWebsocket from '@fastify/websocket';
import { existsSync } from 'node:fs';
import { ROUTES } from '../../shared/api/routes.ts';
import type { EngineService } from '../service/engine-service.ts';
import { serviceErrorOf } from '../service/service-error.ts';
import type { Store } from '../store/store.ts';
import { describeStore, storeLocator } from '../store/store-locator.ts';
import type { LiveWorkers } from '../../shared/api/health-info.ts';
import { apiHandlers } from './api-handlers.ts';
import { bulkHandlers } from './bulk-routes.ts';
import { compareHandler } from './compare-route.ts';
import { serveEventStream, type StreamClient } from './event-stream.ts';
import { EventTexts } from './event-texts.ts';
import { registerRoutes } from './register-routes.ts';
import { ServedReads } from '../service/served-reads.ts';
import { workflowFileHandlers } from './workflow-file-routes.ts';
import { scenarioHandlers } from './scenario-routes.ts';
import { policyHandlers } from './policy-routes.ts';
import { lessonsHandlers } from './lessons-routes.ts';
import { serveAppIndex } from './app-index.ts';
import { contentSecurityPolicyFor } from './security.ts';
import { guardFailure, routerErrorHandler, sendError, setSecurityHeaders } from './request-guards.ts';

export interface ServerOptions {
  service: EngineService;
  store: Store;
  token: string;
  /** The built app (dist/app); without it, / explains how to build it. */
  appDir: string | undefined;
  version: string;
  workspace: string;
  /** The store `store` is open on, as it was named: a file's path, or a PostgreSQL URL (store-locator.ts). */
  storePath: string;
  bodyLimit?: number;
  streamBufferLimit?: number;
  /** The open streams, for a caller that watches what they hold (Serving.streamClients). */
  streams?: Set<StreamClient>;
}

/** Requests bigger than this are refused with 413 (a definition of 1,000 steps is ~1 MB). */
export const DEFAULT_BODY_LIMIT = 4 * 1024 * 1024;


export async function createServer(o: ServerOptions): Promise<FastifyInstance> {
  // Params up to 2,000 characters reach the schemas, which refuse ids over 200 with a clear message.
  const app = Fastify({ logger: false, bodyLimit: o.bodyLimit ?? DEFAULT_BODY_LIMIT, forceCloseConnections: true, routerOptions: { maxParamLength: 2000 }, frameworkErrors: routerErrorHandler(() => port, o.token) });
  let port = 0;
  app.addHook('onListen', async () => {
    const address = app.server.address();
    port = typeof address === 'object' && address !== null ? address.port : 0;
  });

  app.addHook('onRequest', async (request, reply) => {
    const refused = guardFailure(request, port, o.token);
    return refused === undefined ? undefined : sendError(reply, refused.code, refused.message);
  });

  app.addHook('onSend', async (_request, reply, payload) => {
    setSecurityHeaders(reply);
    return payload;
  });

  app.setErrorHandler((error, request, reply) => {
    const service = serviceErrorOf(error);
    if (service !== undefined) return sendError(reply, service.code, service.message, service.path);
    const fastifyError = { statusCode: statusOf(error), message: error instanceof Error ? error.message : String(error) };
    if (fastifyError.statusCode === 413) return sendError(reply, 'too-large', `the request body is over the limit of ${request.routeOptions.bodyLimit ?? o.bodyLimit ?? DEFAULT_BODY_LIMIT} bytes`);
    if (fastifyError.statusCode === 415) return sendError(reply, 'bad-input', 'send the body as JSON (Content-Type: application/json)');
    if (fastifyError.statusCode === 400) return sendError(reply, 'bad-input', `the request body is not valid JSON: ${fastifyError.message ?? ''}`);
    // @fastify/static refuses a dotfile, a directory or a path with ".." with 403: to a caller, no such page.
    if (fastifyError.statusCode === 403 || fastifyError.statusCode === 404) return sendError(reply, 'not-found', `no page ${request.url.split('?')[0]?.slice(0, 200) ?? ''}; the app is at /`);
    return sendError(reply, 'internal', `internal error (a bug in weft; please report it): ${error instanceof Error ? error.message : String(error)}`);
  });

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/')) return sendError(reply, 'not-found', `no route ${request.method} ${request.url.split('?')[0] ?? ''}; the routes are listed in docs/api.md`);
    return sendError(reply, 'not-found', `no page ${request.url.split('?')[0] ?? ''}; the app is at /`);
  });

  // The heavy reads are answered off the engine's thread (engine/service/served-reads.ts), by a
  // connection of their own to the store, a file or a PostgreSQL database alike.
  const reads = new ServedReads(o.service, o.storePath);
  const where = storeLocator(o.storePath, o.workspace);
  /** One encoding of each live event for all the server's streams. */
  const texts = new EventTexts();
  app.addHook('onClose', () => reads.close());

  await app.register(fastifyWebsocket, {
    options: {
      maxPayload: 64 * 1024,
      handleProtocols: (protocols: Set<string>) => (protocols.has('weft') ? 'weft' : false),
    },
  });
  app.route({
    method: ROUTES.stream.method,
    url: ROUTES.stream.path,
    // A plain GET (no upgrade) is told what the endpoint is.
    handler: async (_request, reply) => sendError(reply, 'upgrade-required', '/api/stream is a WebSocket: connect with an upgrade, the subprotocols "weft" and "weft.bearer.TOKEN", then send {"subscribe": {"runs": "all"}} (docs/api.md)'),
    wsHandler: (socket) => {
      // A stream client is an app page, whose reads come next: its read worker starts now, not
      // on its first read (which would wait for the thread to boot while the engine runs).
      void reads.start();
      serveEventStream(socket, o.store, { texts, ...(o.streamBufferLimit === undefined ? {} : { bufferLimit: o.streamBufferLimit }), ...(o.streams === undefined ? {} : { clients: o.streams }) });
    },
  });

  registerRoutes(app, {
    ...apiHandlers(o.service, reads, {
      version: o.version,
      workspace: o.workspace,
      // A file as it was given (absolute from serve); a database without the URL's password.
      storePath: where.kind === 'sqlite' ? o.storePath : describeStore(where),
      storeKind: where.kind,
      user: o.service.defaultActor,
      ...(where.kind === 'postgres' ? { workers: () => liveWorkersOf(o.store) } : {}),
    }),
    ...workflowFileHandlers(o.service),
    ...compareHandler(app, o.service, o.storePath),
    ...scenarioHandlers(o.service),
    ...policyHandlers(o.service),
    ...lessonsHandlers(o.service),
    ...bulkHandlers(o.service),
  });

  if (o.appDir !== undefined && existsSync(o.appDir)) {
    serveAppIndex(app, o.appDir);
    cacheHashedAssets(app);
    await app.register(fastifyStatic, {
      root: o.appDir,
      prefix: '/',
      // The page itself is served by serveAppIndex, with a fresh nonce in its policy.
      index: false,
      dotfiles: 'deny',
      setHeaders: (res, filePath) => {
        res.setHeader('content-security-policy', contentSecurityPolicyFor(filePath));
      },
    });
  } else {
    app.get('/', async (_request, reply) => {
      reply.type('text/plain; charset=utf-8');
      return 'The app is not built: run "npm run build" in the Weft Studio folder, then start weft serve again.\n';
    });
  }
  return app;
}

/** The engines alive on the store, as `GET /api/health` shows them (their ids, roles, hosts and pids). */
function liveWorkersOf(store: Store): LiveWorkers {
  const list = (store.liveWorkers() ?? []).map(({ id, role, host, pid }) => ({ id, role, host, pid }));
  return { alive: list.length, list };
}

/** The HTTP status fastify put on one of its own errors (a body too large, bad JSON), if any. */
function statusOf(error: unknown): number | undefined {
  if (error === null || typeof error !== 'object' || !('statusCode' in error)) return undefined;
  return typeof error.statusCode === 'number' ? error.statusCode : undefined;
}
