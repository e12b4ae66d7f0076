// The checks every request meets before a route, in one place, so that the requests fastify
// answers by itself (a malformed URL, a path segment too long) meet them too: the Host (one
// header, naming this server), the Origin, and for /api/ the token. The security headers and the
// error body are here for the same reason: fastify's own answers would otherwise leave them out.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_ERROR_STATUS, type ApiErrorBody, type ApiErrorCode } from '../../shared/api/api-error.ts';
import { hostAllowed, originAllowed, presentedToken, tokensEqual } from './security.ts';

export interface GuardFailure {
  code: ApiErrorCode;
  message: string;
}

/** How many times a header was sent: Node keeps only the first Host of several. */
function headerCount(rawHeaders: readonly string[], name: string): number {
  let n = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]?.toLowerCase() === name) n += 1;
  return n;
}

/** Why the request is refused before any route sees it, or undefined when it passes. */
export function guardFailure(request: FastifyRequest, port: number, token: string): GuardFailure | undefined {
  const hosts = headerCount(request.raw.rawHeaders, 'host');
  if (hosts > 1) {
    return { code: 'bad-input', message: `the request has ${hosts} Host headers; send exactly one, "Host: 127.0.0.1:${port}"` };
  }
  if (!hostAllowed(request.headers.host, port)) {
    return { code: 'misdirected', message: `this server answers only to 127.0.0.1:${port} or localhost:${port} (Host was "${String(request.headers.host ?? '').slice(0, 100)}")` };
  }
  if (!originAllowed(request.headers.origin, port)) {
    return { code: 'forbidden', message: `cross-site requests are refused (Origin "${String(request.headers.origin).slice(0, 100)}"); open the app at http://127.0.0.1:${port}/` };
  }
  if (request.url.startsWith('/api/')) {
    const given = presentedToken(request.headers.authorization, request.headers['sec-websocket-protocol']);
    if (given === undefined || !tokensEqual(given, token)) {
      return { code: 'unauthorized', message: 'a valid token is required: send "Authorization: Bearer TOKEN" (the token is in the address `weft serve` printed, after #token=)' };
    }
  }
  return undefined;
}

/** Headers every answer carries, an error included. */
export function setSecurityHeaders(reply: FastifyReply): void {
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('x-frame-options', 'DENY');
  reply.header('cache-control', 'no-store');
}

/** Answers with the API's error body, `{"error": {"code", "message", "path"?}}`, and its status. */
export function sendError(reply: FastifyReply, code: ApiErrorCode, message: string, path?: string): FastifyReply {
  const body: ApiErrorBody = { error: { code, message, ...(path === undefined ? {} : { path }) } };
  return reply.code(API_ERROR_STATUS[code]).type('application/json; charset=utf-8').send(body);
}

/**
 * fastify's `frameworkErrors`: what its router refuses before any hook runs (a URL that does not
 * decode). The request meets the guards first, so a bad
 * URL tells nothing to a caller without the token, and the answer is the API's error body.
 */
export function routerErrorHandler(port: () => number, token: string) {
  return (error: Error & { code?: string }, request: FastifyRequest, reply: FastifyReply): void => {
    setSecurityHeaders(reply);
    const refused = guardFailure(request, port(), token);
    if (refused !== undefined) {
      sendError(reply, refused.code, refused.message);
      return;
    }
    const path = (request.raw.url ?? '').split('?')[0]?.slice(0, 200) ?? '';
    if (error.code !== 'FST_ERR_BAD_URL') {
      sendError(reply, 'bad-input', `the path ${path} cannot be routed (${error.message})`);
      return;
    }
    sendError(reply, 'bad-input', `the path ${path} is not a valid URL: each "%" must start an escape such as %20 (percent-encode a literal "%" as %25)`);
  };
}
