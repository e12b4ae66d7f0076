// Test helpers for the http executor: a real HTTP server on 127.0.0.1 that records what it
// received and answers through a handler per test, and attempt contexts for http steps.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AttemptContext } from '../../../../engine/executors/executor.ts';
import { expressionsOver } from '../../../../engine/runtime/expressions.ts';
import type { Step } from '../../../../shared/definition/workflow-schema.ts';

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Answers one request; it may also leave it hanging or destroy the socket. */
export type Handler = (req: Received, res: ServerResponse, raw: IncomingMessage) => void;

export interface TestServer {
  /** http://127.0.0.1:PORT */
  base: string;
  received: Received[];
  /** Replaces the handler for the following requests. */
  handle(handler: Handler): void;
  close(): Promise<void>;
}

export async function startServer(handler: Handler = (_req, res) => res.end()): Promise<TestServer> {
  let current = handler;
  const received: Received[] = [];
  const server = createServer((raw, res) => {
    const chunks: Buffer[] = [];
    raw.on('data', (c: Buffer) => chunks.push(c));
    raw.on('end', () => {
      const req: Received = { method: raw.method ?? '', url: raw.url ?? '', headers: raw.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(req);
      current(req, res, raw);
    });
  });
  const port = await listen(server);
  return {
    base: `http://127.0.0.1:${port}`,
    received,
    handle: (h) => {
      current = h;
    },
    close: () => closeServer(server),
  };
}

/** A port on 127.0.0.1 that nothing listens on (it was just released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await closeServer(server);
  return port;
}

/** Answers with JSON. */
export function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

export interface HttpContextOptions {
  config: Record<string, unknown>;
  effect?: 'none' | 'idempotent' | 'external';
  /** The step's resolved input. */
  input?: unknown;
  /** The run input, which templates and the body read as `input`. */
  runInput?: unknown;
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export function httpContext(options: HttpContextOptions): AttemptContext {
  const step: Step = { id: 'call', kind: 'http', config: { method: 'GET', url: 'http://127.0.0.1/' } };
  if (options.effect !== undefined) step.effect = options.effect;
  return {
    runId: 'run_1',
    stepId: step.id,
    activation: 1,
    attempt: 1,
    input: 'input' in options ? options.input : { n: 1 },
    config: options.config,
    step,
    idempotencyKey: options.idempotencyKey,
    signal: options.signal ?? new AbortController().signal,
    workspaceDir: '/nonexistent',
    expressions: expressionsOver({ input: options.runInput ?? {}, steps: {}, run: { id: 'run_1' } }),
  };
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
