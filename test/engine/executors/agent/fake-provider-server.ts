// A real HTTP server on 127.0.0.1 standing in for a provider: it records every request (path,
// headers, parsed JSON body) and answers with whatever the test's handler says, so the agent
// executor is tested over real sockets, including dropped connections and replies that never come.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export type Handler = (request: RecordedRequest, res: ServerResponse, req: IncomingMessage) => void;

export interface FakeProviderServer {
  /** http://127.0.0.1:PORT */
  url: string;
  requests: RecordedRequest[];
  /** What the next requests get; the default answers 500. */
  answer(handler: Handler): void;
  close(): Promise<void>;
}

export async function startFakeProvider(): Promise<FakeProviderServer> {
  let handler: Handler = (_r, res) => json(res, 500, { error: { message: 'no handler set' } });
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
      };
      requests.push(recorded);
      handler(recorded, res, req);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answer: (h) => {
      handler = h;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export function fixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`../../../fixtures/agent/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;
}

/** An OpenAI chat completion whose message content is `content`. */
export function openAiReply(content: string | null, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const base = fixture('openai-chat-completion.json');
  const choices = base['choices'] as Array<{ message: Record<string, unknown>; finish_reason: string }>;
  const first = choices[0];
  if (first) first.message['content'] = content;
  return { ...base, ...extra };
}

/** An Anthropic message whose single text block is `text`. */
export function anthropicReply(text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...fixture('anthropic-message.json'), content: [{ type: 'text', text }], ...extra };
}
