// One JSON request to a `weft serve` on 127.0.0.1, with its token, through node:http rather than
// fetch: a forwarded `weft run` answers when its run has settled, which may take longer than
// fetch's five-minute header timeout, so a command waits as long as its run takes. A request that reached no server
// (connection refused) is told apart from one cut off after it was sent: only the first may be
// done again elsewhere.
import { request } from 'node:http';

export interface LoopbackAnswer {
  status: number;
  /** The body parsed as JSON; null when it is not JSON. */
  body: unknown;
}

/** The server took no request: nothing was sent, so the command may run elsewhere. */
export class NotReached extends Error {
  override name = 'NotReached';
}

/**
 * Sends `body` (as JSON) and resolves with the status and the parsed answer. With `timeoutMs`, a
 * server that has not answered by then (a hung or stopped process) fails the request.
 *
 * @example
 * const { status, body } = await loopbackRequest('http://127.0.0.1:4000', token, 'GET', '/api/health', undefined, 60_000);
 */
export function loopbackRequest(base: string, token: string, method: 'GET' | 'POST', path: string, body?: unknown, timeoutMs?: number): Promise<LoopbackAnswer> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    let responded = false;
    const req = request(
      new URL(path, base),
      {
        method,
        agent: false,
        headers: {
          authorization: `Bearer ${token}`,
          ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(payload.length) }),
        },
      },
      (res) => {
        responded = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          let parsed: unknown = null;
          try {
            parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
          } catch {
            parsed = null;
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    if (timeoutMs !== undefined) req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    req.on('error', (error: Error & { code?: string }) => {
      if (!responded && error.code === 'ECONNREFUSED') reject(new NotReached(error.message));
      else reject(error);
    });
    req.end(payload);
  });
}
