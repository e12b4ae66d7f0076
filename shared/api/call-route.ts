// A client's call of one route of the table (routes.ts), built from the route's entry: the method,
// the path with its parameters filled in, the query, the JSON body, the bearer token, and the
// answer read with the route's answer schema. A client names a route by id and passes typed
// parts; it never writes a path or picks a schema. fetch is injected (the app passes the
// browser's, a test a real one), so this stays free of any runtime's globals.
import type { z } from 'zod';
import { ApiErrorBody } from './api-error.ts';
import { NO_BODY, NONE, ROUTES, type HttpRouteId, type RouteAnswerOf, type Routes, type RouteSpec } from './routes.ts';

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** Where and how to call: the server's origin (`http://127.0.0.1:PORT`), its token, and fetch. */
export interface RouteClient {
  base: string;
  token: string;
  fetch: FetchLike;
}

type PartInput<P extends { schema: z.ZodType }, Key extends string> = P extends typeof NONE ? { [k in Key]?: undefined } : { [k in Key]: z.input<P['schema']> };
type BodyInput<B extends z.ZodType> = B extends typeof NO_BODY ? { body?: undefined } : { body: z.input<B> };

/** What a call of route K gives: its path parameters, query and body, each only where the route takes one. */
export type RouteCallInput<K extends HttpRouteId> = PartInput<Routes[K]['params'], 'params'> & PartInput<Routes[K]['query'], 'query'> & BodyInput<Routes[K]['body']>;

/** A refused or failed call: the API's error code (or `http-error`, `bad-answer`), message and path. */
export class RouteCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly path?: string,
  ) {
    super(message);
    this.name = 'RouteCallError';
  }
}

/**
 * The URL of route `id` with `params` filled in (each percent-encoded) and `query` appended
 * (fields left out or undefined are not sent).
 *
 * @example
 * routeUrl('runs.events', { id: 'r1' }, { after: 20 }); // '/api/runs/r1/events?after=20'
 */
export function routeUrl(id: HttpRouteId, params?: unknown, query?: unknown): string {
  const spec: RouteSpec = ROUTES[id];
  const path = spec.path.replace(/:(\w+)/g, (_all, name: string) => {
    const value = fieldOf(params, name);
    if (value === undefined) throw new RouteCallError(0, 'bad-input', `${spec.method} ${spec.path} needs the path parameter "${name}"`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  if (typeof query === 'object' && query !== null) {
    for (const [key, value] of Object.entries(query)) if (value !== undefined) search.set(key, String(value));
  }
  const text = search.toString();
  return text === '' ? path : `${path}?${text}`;
}

/** The request of a call of route `id`: its method, the token, and the body as JSON when the route takes one. */
export function routeInit(id: HttpRouteId, token: string, body?: unknown, signal?: AbortSignal): RequestInit {
  const spec: RouteSpec = ROUTES[id];
  const sends = spec.body !== NO_BODY && body !== undefined;
  return {
    method: spec.method,
    headers: { authorization: `Bearer ${token}`, ...(sends ? { 'content-type': 'application/json' } : {}) },
    ...(sends ? { body: JSON.stringify(body) } : {}),
    ...(signal === undefined ? {} : { signal }),
  };
}

/** The RouteCallError an unsuccessful answer of route `id` stands for: the API's error body, or `http-error` without one. */
export async function routeCallError(id: HttpRouteId, response: Response): Promise<RouteCallError> {
  const spec: RouteSpec = ROUTES[id];
  const error = ApiErrorBody.safeParse(await response.json().catch(() => undefined));
  if (error.success) return new RouteCallError(response.status, error.data.error.code, error.data.error.message, error.data.error.path);
  return new RouteCallError(response.status, 'http-error', `HTTP ${response.status} from ${spec.method} ${spec.path}`);
}

/** A successful answer's body read with route `id`'s answer schema; an unsuccessful one throws its RouteCallError. */
export async function readRouteAnswer<K extends HttpRouteId>(id: K, response: Response): Promise<RouteAnswerOf<K>>;
// TypeScript reads ROUTES[K].answer as the union over every route, so the signature above states
// what this does for each route alike: a body parsed with route K's schema is route K's answer.
export async function readRouteAnswer(id: HttpRouteId, response: Response): Promise<RouteAnswerOf<HttpRouteId>> {
  if (!response.ok) throw await routeCallError(id, response);
  const spec = ROUTES[id];
  const parsed = spec.answer.safeParse(await response.json().catch(() => undefined));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new RouteCallError(response.status, 'bad-answer', `the answer of ${spec.method} ${spec.path} does not match its schema at ${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''} (is the client older or newer than the engine?)`);
}

/**
 * Calls route `id` and answers its body, parsed with the route's answer schema.
 *
 * @example
 * const page = await callRoute(client, 'runs.events', { params: { id: runId }, query: { after: 0, limit: 200 } });
 * page.events[0]?.type; // typed by the table: RunEventsPage
 */
export async function callRoute<K extends HttpRouteId>(client: RouteClient, id: K, input: RouteCallInput<K>, signal?: AbortSignal): Promise<RouteAnswerOf<K>> {
  const parts: { params?: unknown; query?: unknown; body?: unknown } = input;
  const response = await client.fetch(`${client.base}${routeUrl(id, parts.params, parts.query)}`, routeInit(id, client.token, parts.body, signal));
  return readRouteAnswer(id, response);
}

function fieldOf(value: unknown, name: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  return Object.entries(value).find(([key]) => key === name)?.[1];
}
