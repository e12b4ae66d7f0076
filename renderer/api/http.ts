// The one way the app's API clients talk to the engine: a request with the bearer token, and an
// answer read against its shared/api schema. An error body `{"error": {"code", "message",
// "path"?}}` becomes an ApiError with those fields; an answer that does not match the schema
// becomes a `bad-answer` ApiError naming where (an app older or newer than the engine).
import type { z } from 'zod';
import { ApiErrorBody } from '../../shared/api/api-error.ts';

/** A refused or failed call: the engine's error code, message and the path of the bad input. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly path?: string,
  ) {
    super(message);
  }
}

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface RequestOptions {
  method?: string;
  /** Sent as JSON; without a body no content-type is sent (the server refuses an empty JSON body). */
  body?: unknown;
  signal?: AbortSignal;
  fetchFn?: FetchLike;
}

/** Sends a request to `base + path` with the token. */
export function send(base: string, token: string, path: string, { method = 'GET', body, signal, fetchFn = (u, i) => fetch(u, i) }: RequestOptions = {}): Promise<Response> {
  return fetchFn(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(signal === undefined ? {} : { signal }),
  });
}

/** The ApiError an unsuccessful answer stands for. */
export async function errorOf(response: Response, path: string): Promise<ApiError> {
  const error = ApiErrorBody.safeParse(await response.json().catch(() => null));
  if (error.success) return new ApiError(response.status, error.data.error.code, error.data.error.message, error.data.error.path);
  return new ApiError(response.status, 'http-error', `HTTP ${response.status} from ${path}`);
}

/** A successful answer's body, parsed with `schema`; an unsuccessful one throws its ApiError. */
export async function readAnswer<S extends z.ZodType>(response: Response, schema: S, path: string): Promise<z.infer<S>> {
  if (!response.ok) throw await errorOf(response, path);
  const parsed = schema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ApiError(response.status, 'bad-answer', `the engine's answer to ${path} does not match the app's contract at ${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''} (is the app older or newer than the engine?)`);
  }
  return parsed.data;
}

/** Sends and reads in one: what most client calls are. */
export async function call<S extends z.ZodType>(base: string, token: string, path: string, schema: S, options: RequestOptions = {}): Promise<z.infer<S>> {
  return readAnswer(await send(base, token, path, options), schema, path);
}
