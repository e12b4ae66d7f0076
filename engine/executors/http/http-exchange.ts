// One HTTP request and its reply, told apart by what the server can have seen (principle 3):
// `not_sent` when the connection was never made (DNS failure, refused, TLS handshake failed), so
// nothing reached the server; `lost` when the connection was made and the reply did not arrive
// whole, so the server may have acted. node:http is used rather than fetch because it shows that
// boundary: the moment the socket connects (for https, the moment the handshake completes) is the
// first moment request bytes can leave. Every request gets a fresh connection (`agent: false`):
// a reused keep-alive connection that the server has just closed fails the same way as a lost
// reply, and would turn a request that never arrived into an `unknown`.
import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import type { HttpRequestPlan } from './http-request-plan.ts';

export type ExchangeEnd =
  | { kind: 'response'; status: number; headers: IncomingHttpHeaders; body: Buffer }
  /** Nothing reached the server. */
  | { kind: 'not_sent'; error: Error }
  /** The server may have received the request; no complete reply came back. `status` if its head did. */
  | { kind: 'lost'; error: Error; status?: number; headers?: IncomingHttpHeaders }
  | { kind: 'aborted'; connected: boolean; status?: number }
  /** The reply is longer than `maxBytes` (`declared` when Content-Length said so up front). */
  | { kind: 'too_large'; status: number; headers: IncomingHttpHeaders; declared?: number };

export interface ExchangeOptions {
  signal: AbortSignal;
  /** Largest body accepted as it comes over the wire (before any content decoding). */
  maxBytes: number;
}

/** Sends the request and waits for the whole reply. Never rejects. */
export function exchange(plan: HttpRequestPlan, options: ExchangeOptions): Promise<ExchangeEnd> {
  return new Promise<ExchangeEnd>((resolve) => {
    const { signal, maxBytes } = options;
    const tls = plan.url.protocol === 'https:';
    let connected = false;
    let status: number | undefined;
    let settled = false;
    let req: ClientRequest | undefined;

    const finish = (end: ExchangeEnd): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      req?.destroy();
      resolve(end);
    };
    const onAbort = (): void => finish({ kind: 'aborted', connected, ...(status === undefined ? {} : { status }) });

    try {
      req = (tls ? httpsRequest : httpRequest)(plan.url, { method: plan.method, headers: plan.headers, agent: false });
    } catch (error) {
      // Synchronous refusals (a header or method node will not send); nothing left the process.
      finish({ kind: 'not_sent', error: asError(error) });
      return;
    }
    req.on('socket', (socket: Socket) => {
      socket.once(tls ? 'secureConnect' : 'connect', () => {
        connected = true;
      });
    });
    req.on('error', (error) => {
      finish(connected ? { kind: 'lost', error } : { kind: 'not_sent', error });
    });
    req.on('response', (res: IncomingMessage) => {
      const code = res.statusCode ?? 0;
      status = code;
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        finish({ kind: 'too_large', status: code, headers: res.headers, declared });
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) finish({ kind: 'too_large', status: code, headers: res.headers });
        else chunks.push(chunk);
      });
      res.on('end', () => finish({ kind: 'response', status: code, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', (error) => finish({ kind: 'lost', error, status: code, headers: res.headers }));
      res.on('close', () => {
        if (!res.complete) finish({ kind: 'lost', error: new Error('the connection closed before the whole body arrived'), status: code, headers: res.headers });
      });
    });
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    req.end(plan.body);
  });
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
