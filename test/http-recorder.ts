// A real HTTP server on 127.0.0.1 that stands in for the engine in client tests: it records each
// request that arrives (method, URL, token, content type, body) and answers with what the case
// set last, as JSON or as exact text.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Arrived {
  method: string;
  url: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: string;
}

export interface HttpRecorder {
  /** `http://127.0.0.1:PORT`. */
  base: string;
  /** Every request so far, oldest first. */
  arrived: Arrived[];
  /** Answers the next requests with `body` as JSON. */
  answer(status: number, body: unknown): void;
  /** Answers the next requests with `text` exactly (content type JSON). */
  answerText(status: number, text: string): void;
  close(): Promise<void>;
}

const read = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => resolve(text));
  });

/** Starts a recorder that answers 200 `{}` until told otherwise. */
export async function startHttpRecorder(): Promise<HttpRecorder> {
  const arrived: Arrived[] = [];
  let next = { status: 200, text: '{}' };
  const server = createServer((request, response) => {
    void read(request).then((body) => {
      arrived.push({ method: request.method ?? '', url: request.url ?? '', authorization: request.headers.authorization, contentType: request.headers['content-type'], body });
      response.writeHead(next.status, { 'content-type': 'application/json' });
      response.end(next.text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrived,
    answer: (status, body) => (next = { status, text: JSON.stringify(body) }),
    answerText: (status, text) => (next = { status, text }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
