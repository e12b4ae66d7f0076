// The HTTP and WebSocket server of `weft serve`, on fastify (routing, body parsing and limits)
// with @fastify/websocket (ws) and @fastify/static. Every request passes, in order: the Host check
// (one Host header, 400; naming this server, 421), the Origin check (403), and for /api/ the token
// (401), in request-guards.ts, which a URL the router refuses meets too; then its params, query
// and body are parsed with the shared/api zod schemas (400 with the JSON path). Errors always come
// as {"error": {"code", "message", "path"?}}. The app's static files need no token and hold no
// data; a refused static path (a dotfile, a folder, "..") is 404 like a missing one.
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import { existsSync } from 'node:fs';
import { RunId, StepId, WorkflowId } from '../../shared/api/api-ids.ts';
import { EventPageQuery } from '../../shared/api/event-page.ts';
import { RunAction } from '../../shared/api/run-action.ts';
import { RunListQuery } from '../../shared/api/run-summary.ts';
import { SendEventCommand } from '../../shared/api/send-event-command.ts';
import { StartRunCommand } from '../../shared/api/start-run-command.ts';
import { TaskAction } from '../../shared/api/task-action.ts';
import { ValidateRequest } from '../../shared/api/workflow-views.ts';
import { validateDefinitionText } from '../../shared/validator/validate-workflow.ts';
import type { EngineService } from '../service/engine-service.ts';
import { parseCommand } from '../service/parse-command.ts';
import { serviceErrorOf } from '../service/service-error.ts';
import type { Store } from '../store/store.ts';
import { serveEventStream, type StreamClient } from './event-stream.ts';
import { registerWorkflowFiles } from './workflow-file-routes.ts';
import { registerCompare } from './compare-route.ts';
import { registerRunValues } from './run-value-routes.ts';
import { DETAIL_VALUE_LIMIT } from '../../shared/api/elided-value.ts';
import { registerCommands } from './command-route.ts';
import { serveAppIndex } from './app-index.ts';
import { contentSecurityPolicyFor } from './security.ts';
import { guardFailure, routerErrorHandler, sendError, setSecurityHeaders } from './request-guards.ts';
import { z as zod } from 'zod';

export interface ServerOptions {
  service: EngineService;
  store: Store;
  token: string;
  /** The built app (dist/app); without it, / explains how to build it. */
  appDir: string | undefined;
  version: string;
  workspace: string;
  storePath: string;
  bodyLimit?: number;
  streamBufferLimit?: number;
  /** The open streams, for a caller that watches what they hold (Serving.streamClients). */
  streams?: Set<StreamClient>;
}

/** Requests bigger than this are refused with 413 (a definition of 1,000 steps is ~1 MB). */
export const DEFAULT_BODY_LIMIT = 4 * 1024 * 1024;



const RunParams = zod.strictObject({ id: RunId });
const TaskParams = zod.strictObject({ runId: RunId, stepId: StepId });
const WorkflowParams = zod.strictObject({ id: WorkflowId });
const VersionParams = zod.strictObject({ id: WorkflowId, version: zod.coerce.number().int().positive() });
const StatsParams = zod.strictObject({ workflowId: WorkflowId });
const StatsQuery = zod.strictObject({ version: zod.coerce.number().int().positive().optional() });

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

  await app.register(fastifyWebsocket, {
    options: {
      maxPayload: 64 * 1024,
      handleProtocols: (protocols: Set<string>) => (protocols.has('weft') ? 'weft' : false),
    },
  });
  app.route({
    method: 'GET',
    url: '/api/stream',
    // A plain GET (no upgrade) is told what the endpoint is.
    handler: async (_request, reply) => sendError(reply, 'upgrade-required', '/api/stream is a WebSocket: connect with an upgrade, the subprotocols "weft" and "weft.bearer.TOKEN", then send {"subscribe": {"runs": "all"}} (docs/api.md)'),
    wsHandler: (socket) => {
      serveEventStream(socket, o.store, { ...(o.streamBufferLimit === undefined ? {} : { bufferLimit: o.streamBufferLimit }), ...(o.streams === undefined ? {} : { clients: o.streams }) });
    },
  });

  registerApi(app, o);

  if (o.appDir !== undefined && existsSync(o.appDir)) {
    serveAppIndex(app, o.appDir);
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

/** The HTTP status fastify put on one of its own errors (a body too large, bad JSON), if any. */
function statusOf(error: unknown): number | undefined {
  if (error === null || typeof error !== 'object' || !('statusCode' in error)) return undefined;
  return typeof error.statusCode === 'number' ? error.statusCode : undefined;
}

function registerApi(app: FastifyInstance, o: ServerOptions): void {
  const s = o.service;

  app.get('/api/health', async () => ({ version: o.version, workspace: o.workspace, store: o.storePath }));

  app.get('/api/workflows', async () => ({ workflows: await s.workflowList() }));

  app.get('/api/workflows/:id', async (request: FastifyRequest) => {
    const { id } = parseCommand(WorkflowParams, request.params, 'the workflow id');
    return s.workflowDetail(id);
  });

  app.get('/api/workflows/:id/versions/:version', async (request: FastifyRequest) => {
    const { id, version } = parseCommand(VersionParams, request.params, 'the workflow version');
    return s.storedVersionDetail(id, version);
  });

  registerWorkflowFiles(app, s);
  registerCompare(app, s, o.storePath);

  app.post('/api/validate', async (request: FastifyRequest) => {
    const body = parseCommand(ValidateRequest, request.body, 'the request');
    const text = body.text ?? JSON.stringify(body.definition);
    const { diagnostics } = validateDefinitionText(text);
    return { valid: !diagnostics.some((d) => d.severity === 'error'), diagnostics };
  });

  app.get('/api/runs', async (request: FastifyRequest) => {
    const q = parseCommand(RunListQuery, request.query, 'the query');
    return s.runs({
      ...(q.workflow === undefined ? {} : { workflow: q.workflow }),
      ...(q.state === undefined ? {} : { state: q.state }),
      ...(q.after === undefined ? {} : { after: q.after }),
      ...(q.limit === undefined ? {} : { limit: q.limit }),
      ...(q.q === undefined ? {} : { q: q.q }),
    });
  });

  app.post('/api/runs', async (request: FastifyRequest, reply: FastifyReply) => {
    const body = parseCommand(StartRunCommand, request.body, 'the request');
    const started = await s.startRun(body);
    reply.code(started.created ? 201 : 200);
    return { runId: started.runId, state: started.state };
  });

  app.get('/api/runs/:id', async (request: FastifyRequest) => {
    const { id } = parseCommand(RunParams, request.params, 'the run id');
    return s.runDetail(id, { elideOver: DETAIL_VALUE_LIMIT });
  });

  registerRunValues(app, s);
  registerCommands(app, s);

  app.get('/api/runs/:id/timeline', async (request: FastifyRequest) => {
    const { id } = parseCommand(RunParams, request.params, 'the run id');
    return s.timeline(id);
  });

  app.get('/api/runs/:id/events', async (request: FastifyRequest) => {
    const { id } = parseCommand(RunParams, request.params, 'the run id');
    const q = parseCommand(EventPageQuery, request.query, 'the query');
    return s.events(id, q.after ?? 0, q.limit ?? 1000, q.elide);
  });

  // Every operator action, revise (with dryRun, a RevisePlan) and fork included, is the service's.
  app.post('/api/runs/:id/actions', async (request: FastifyRequest, reply: FastifyReply) => {
    const { id } = parseCommand(RunParams, request.params, 'the run id');
    const a = parseCommand(RunAction, request.body, 'the action');
    // Who acts and why, when the request does not say: the service's one default (who-acts.ts).
    const answer = await s.act(id, a);
    if (a.action === 'fork') reply.code(201);
    return answer;
  });

  app.get('/api/tasks', async () => ({ tasks: s.tasks() }));

  app.post('/api/tasks/:runId/:stepId', async (request: FastifyRequest) => {
    const { runId, stepId } = parseCommand(TaskParams, request.params, 'the task');
    const a = parseCommand(TaskAction, request.body, 'the answer');
    return s.decide(runId, stepId, a);
  });

  app.post('/api/events', async (request: FastifyRequest) => {
    const e = parseCommand(SendEventCommand, request.body, 'the event');
    const result = await s.sendEvent(e);
    return result.runId === undefined ? result : { ...result, state: s.runState(result.runId) };
  });

  app.get('/api/stats/:workflowId', async (request: FastifyRequest) => {
    const { workflowId } = parseCommand(StatsParams, request.params, 'the workflow id');
    const { version } = parseCommand(StatsQuery, request.query, 'the query');
    return s.stats(workflowId, version);
  });
}
