// Principle 3 for http steps: what a missing reply means depends on whether the server can have
// seen the request. Nothing sent is a plain failure; a lost reply of an external step is unknown.
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AttemptResult } from '../../../../engine/executors/executor.ts';
import { HttpExecutor } from '../../../../engine/executors/http/http-executor.ts';
import { closedPort, httpContext, startServer, type HttpContextOptions, type TestServer } from './http-test-server.ts';
import { until } from '../../until.ts';

const executor = new HttpExecutor();
let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(() => server.close());

const run = (options: HttpContextOptions): Promise<AttemptResult> => executor.execute(httpContext(options));
const put = (url: string) => ({ method: 'PUT', url, body: '{ "v": 1 }' });

describe('http executor: nothing was sent', () => {
  it('fails with connection_failed, retryable, when the connection is refused, even for an external step', async () => {
    const port = await closedPort();
    const result = await run({ config: put(`http://127.0.0.1:${port}/x`), effect: 'external' });
    expect(result).toMatchObject({ outcome: 'failed', code: 'connection_failed', retryable: true });
    if (result.outcome === 'failed') expect(result.message).toContain(`nothing is listening at 127.0.0.1:${port} (connection refused)`);
  });

  it('fails with connection_failed when the host name does not resolve', async () => {
    const result = await run({ config: put('http://weft-test-host.invalid/x'), effect: 'external' });
    expect(result).toMatchObject({ outcome: 'failed', code: 'connection_failed', retryable: true });
  });

  it('fails with aborted, sending nothing, when the signal is aborted before the attempt', async () => {
    const controller = new AbortController();
    controller.abort(new Error('run cancelled'));
    const result = await run({ config: put(server.base), effect: 'external', signal: controller.signal });
    expect(result).toMatchObject({ outcome: 'failed', code: 'aborted', retryable: true });
    expect(server.received).toHaveLength(0);
  });
});

describe('http executor: the reply was lost', () => {
  const destroyAfterReading = (): void => server.handle((_req, _res, raw) => raw.socket.destroy());

  it('is unknown for an external step when the server takes the request and drops the connection', async () => {
    destroyAfterReading();
    const result = await run({ config: put(`${server.base}/records/1`), effect: 'external' });
    expect(result.outcome).toBe('unknown');
    if (result.outcome === 'unknown') expect(result.reason).toMatch(new RegExp(`^PUT ${server.base}/records/1 was sent, but no complete reply arrived: .*whether the server applied it is unknown$`));
    expect(server.received).toHaveLength(1);
  });

  it('is a retryable connection_lost for a step without an external effect', async () => {
    destroyAfterReading();
    expect(await run({ config: put(server.base), effect: 'idempotent' })).toMatchObject({ outcome: 'failed', code: 'connection_lost', retryable: true });
    expect(await run({ config: { method: 'GET', url: server.base } })).toMatchObject({ outcome: 'failed', code: 'connection_lost', retryable: true });
  });

  it('is unknown when a success status arrives but the body is cut off', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"partial":', () => res.socket?.destroy());
    });
    const result = await run({ config: put(server.base), effect: 'external' });
    expect(result).toMatchObject({ outcome: 'unknown', meta: { status: 200 } });
    if (result.outcome === 'unknown') expect(result.reason).toContain('the server answered 200 and then the body was lost');
  });

  it('is the status\'s own failure when an error status arrives and the body is cut off', async () => {
    server.handle((_req, res) => {
      res.writeHead(500, { 'content-length': '100' });
      res.write('boom', () => res.socket?.destroy());
    });
    expect(await run({ config: put(server.base), effect: 'external' })).toMatchObject({ outcome: 'failed', code: 'http_500', retryable: true });
  });

  it('is unknown for an external step when the attempt is aborted while waiting for the reply', async () => {
    server.handle(() => undefined); // never answers
    const controller = new AbortController();
    const pending = run({ config: put(server.base), effect: 'external', signal: controller.signal });
    await until(() => server.received.length === 1, 'the server to receive the request');
    controller.abort(new Error('timed out after 50 ms'));
    const result = await pending;
    expect(result.outcome).toBe('unknown');
    if (result.outcome === 'unknown') expect(result.reason).toBe(`aborted: timed out after 50 ms; PUT ${server.base}/ was sent and no reply had arrived`);
  });

  it('is a retryable aborted failure for a step without an external effect', async () => {
    server.handle(() => undefined);
    const controller = new AbortController();
    const pending = run({ config: { method: 'GET', url: server.base }, signal: controller.signal });
    await until(() => server.received.length === 1, 'the server to receive the request');
    controller.abort(new Error('run cancelled'));
    expect(await pending).toMatchObject({ outcome: 'failed', code: 'aborted', retryable: true });
  });
});

describe('http executor: https, where sending starts after the TLS handshake', () => {
  let tcp: Server | undefined;
  afterEach(() => {
    tcp?.close();
    tcp = undefined;
  });

  /** A TCP server that accepts connections and then stalls or hangs up, never speaking TLS. */
  async function tcpServer(onConnection: (socket: Socket) => void): Promise<number> {
    const sockets: Socket[] = [];
    tcp = createNetServer((socket) => {
      sockets.push(socket);
      socket.on('error', () => undefined);
      onConnection(socket);
    });
    tcp.on('close', () => sockets.forEach((s) => s.destroy()));
    await new Promise<void>((resolve) => tcp?.listen(0, '127.0.0.1', resolve));
    return (tcp.address() as AddressInfo).port;
  }

  it('fails with connection_failed, even for an external step, when the handshake fails', async () => {
    const port = await tcpServer((socket) => socket.destroy());
    expect(await run({ config: put(`https://127.0.0.1:${port}/x`), effect: 'external' })).toMatchObject({ outcome: 'failed', code: 'connection_failed', retryable: true });
  });

  it('fails with aborted (not unknown) when aborted during the handshake: nothing was sent', async () => {
    let connections = 0;
    const port = await tcpServer(() => connections++);
    const controller = new AbortController();
    const pending = run({ config: put(`https://127.0.0.1:${port}/x`), effect: 'external', signal: controller.signal });
    await until(() => connections === 1, 'the TCP connection');
    controller.abort(new Error('timed out after 50 ms'));
    const result = await pending;
    expect(result).toMatchObject({ outcome: 'failed', code: 'aborted', retryable: true });
    if (result.outcome === 'failed') expect(result.message).toContain('aborted before the request was sent: timed out after 50 ms');
  });
});
