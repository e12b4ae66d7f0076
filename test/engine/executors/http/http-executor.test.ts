// The http executor against a real server on 127.0.0.1: what it sends (templates, body, headers,
// Idempotency-Key) and what it makes of the reply (statuses, retryability, bodies, size cap).
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AttemptResult } from '../../../../engine/executors/executor.ts';
import { HttpExecutor } from '../../../../engine/executors/http/http-executor.ts';
import { failed } from '../attempt-context.ts';
import { httpContext, json, startServer, type HttpContextOptions, type TestServer } from './http-test-server.ts';

const executor = new HttpExecutor();
let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(() => server.close());

const run = (options: HttpContextOptions, using = executor): Promise<AttemptResult> => using.execute(httpContext(options));

describe('http executor: requests', () => {
  it('GETs, parses a JSON reply, and sends no body even when the step has an input', async () => {
    server.handle((_req, res) => json(res, 200, { id: 7, tags: ['a'] }, { 'X-Trace': 'abc' }));
    const result = await run({ config: { method: 'GET', url: `${server.base}/records/7` }, input: { ignored: true } });
    expect(result).toMatchObject({
      outcome: 'succeeded',
      output: { status: 200, headers: { 'content-type': 'application/json', 'x-trace': 'abc' }, body: { id: 7, tags: ['a'] } },
      meta: { status: 200 },
    });
    expect(result.meta?.latencyMs).toBeGreaterThanOrEqual(0);
    const [req] = server.received;
    expect(req).toMatchObject({ method: 'GET', url: '/records/7', body: '' });
    expect(req?.headers['content-type']).toBeUndefined();
    expect(req?.headers['accept']).toContain('application/json');
    expect(req?.headers['idempotency-key']).toBeUndefined();
  });

  it('POSTs the JSONata body as JSON with the step\'s Idempotency-Key', async () => {
    server.handle((_req, res) => json(res, 201, { created: true }));
    const result = await run({
      config: { method: 'POST', url: `${server.base}/orders`, body: '{ "orderId": input.orderId, "total": $sum(input.items.price) }' },
      runInput: { orderId: 'o-1', items: [{ price: 2 }, { price: 3 }] },
      effect: 'external',
      idempotencyKey: 'order-o-1',
    });
    expect(result).toMatchObject({ outcome: 'succeeded', output: { status: 201, body: { created: true } } });
    const [req] = server.received;
    expect(JSON.parse(req?.body ?? '')).toEqual({ orderId: 'o-1', total: 5 });
    expect(req?.headers['content-type']).toBe('application/json');
    expect(req?.headers['idempotency-key']).toBe('order-o-1');
  });

  it('sends the step\'s input when there is no body, and nothing when the input is null', async () => {
    await run({ config: { method: 'PUT', url: `${server.base}/a` }, input: { value: 3 } });
    await run({ config: { method: 'DELETE', url: `${server.base}/b` }, input: null });
    expect(server.received.map((r) => r.body)).toEqual(['{"value":3}', '']);
    expect(server.received[1]?.headers['content-type']).toBeUndefined();
  });

  it('renders the URL and header templates, and keeps an Idempotency-Key the config sets', async () => {
    await run({
      config: {
        method: 'POST',
        url: '{{ input.apiBase }}/orders/{{ input.orderId }}?page={{ $string(input.page) }}',
        headers: { Authorization: 'Bearer {{ input.token }}', 'idempotency-KEY': 'mine-{{ input.orderId }}' },
      },
      runInput: { apiBase: server.base, orderId: 'o-9', page: 2, token: 't0ken' },
      idempotencyKey: 'engine-key',
    });
    const [req] = server.received;
    expect(req?.url).toBe('/orders/o-9?page=2');
    expect(req?.headers['authorization']).toBe('Bearer t0ken');
    expect(req?.headers['idempotency-key']).toBe('mine-o-9');
  });

  it('sends a HEAD without a body and gives a null body', async () => {
    server.handle((_req, res) => json(res, 200, { big: 'x' }));
    expect(await run({ config: { method: 'HEAD', url: server.base } })).toMatchObject({ outcome: 'succeeded', output: { status: 200, body: null } });
    expect(server.received[0]).toMatchObject({ method: 'HEAD', body: '' });
  });

  it('sends credentials in the URL as Basic authentication and never shows them in messages', async () => {
    server.handle((_req, res) => json(res, 404, { error: 'no such record' }));
    const url = server.base.replace('http://', 'http://ops:s3cret@');
    const result = failed(await run({ config: { method: 'GET', url: `${url}/records/1?view=full` } }));
    expect(server.received[0]?.headers['authorization']).toBe(`Basic ${Buffer.from('ops:s3cret').toString('base64')}`);
    expect(result.message).toContain(`GET ${server.base}/records/1?view=full answered 404 Not Found`);
    expect(result.message).not.toContain('s3cret');
  });
});

describe('http executor: definition problems are not retryable', () => {
  it('fails with invalid_url, saying what the template produced', async () => {
    const empty = failed(await run({ config: { method: 'GET', url: '{{ input.apiBase }}/orders' }, runInput: {} }));
    expect(empty).toMatchObject({ code: 'invalid_url', retryable: false });
    expect(empty.message).toContain('produced "/orders", which is not an absolute URL');
    const ftp = failed(await run({ config: { method: 'GET', url: 'ftp://u:pw@example.com/x' } }));
    expect(ftp.message).toContain('uses ftp: instead of http or https');
    expect(ftp.message).not.toContain('pw');
    expect(server.received).toHaveLength(0);
  });

  it('refuses a header value with a line break (header injection)', async () => {
    const result = failed(await run({ config: { method: 'GET', url: server.base, headers: { 'X-Note': '{{ input.note }}' } }, runInput: { note: 'a\r\nX-Admin: 1' } }));
    expect(result).toMatchObject({ code: 'invalid_header', retryable: false });
    expect(result.message).toContain('config.headers.X-Note: the rendered value has U+000D at character 2');
    expect(result.message).not.toContain('X-Admin'); // header values may be secrets: never shown
    expect(server.received).toHaveLength(0);
  });

  it('reports an expression that fails as expression_error, naming the config key', async () => {
    const result = failed(await run({ config: { method: 'POST', url: server.base, body: '$number("x")' } }));
    expect(result).toMatchObject({ code: 'expression_error', retryable: false });
    expect(result.message).toMatch(/^config\.body: /);
  });

  it('fails with invalid_config when the config does not parse', async () => {
    expect(await run({ config: { method: 'FETCH', url: server.base } })).toMatchObject({ outcome: 'failed', code: 'invalid_config', retryable: false });
  });
});

describe('http executor: statuses', () => {
  it('fails with http_<status> when the status is not in expectStatus', async () => {
    server.handle((_req, res) => json(res, 200, { ok: true }));
    const result = failed(await run({ config: { method: 'POST', url: `${server.base}/x`, expectStatus: [201] }, input: {} }));
    expect(result).toMatchObject({ code: 'http_200', retryable: false, meta: { status: 200 }, output: { status: 200, body: { ok: true } } });
    expect(result.message).toContain('(expected 201)');
  });

  it('accepts a non-2xx status listed in expectStatus', async () => {
    server.handle((_req, res) => json(res, 404, { missing: true }));
    expect(await run({ config: { method: 'GET', url: server.base, expectStatus: [200, 404] } })).toMatchObject({ outcome: 'succeeded', output: { status: 404 } });
  });

  it('does not retry a 404, and names method, URL and the start of the body', async () => {
    server.handle((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end(`no record 7 ${'x'.repeat(2000)}`);
    });
    const result = failed(await run({ config: { method: 'GET', url: `${server.base}/records/7` } }));
    expect(result).toMatchObject({ code: 'http_404', retryable: false });
    expect(result.message).toMatch(new RegExp(`^GET ${server.base}/records/7 answered 404 Not Found \\(expected 2xx\\): no record 7 x+…$`));
    expect(result.message.length).toBeLessThan(700);
  });

  it('retries a 503 and a 408', async () => {
    server.handle((_req, res) => json(res, 503, { error: 'maintenance' }));
    expect(failed(await run({ config: { method: 'GET', url: server.base } }))).toMatchObject({ code: 'http_503', retryable: true });
    server.handle((_req, res) => json(res, 408, {}));
    expect(failed(await run({ config: { method: 'GET', url: server.base } }))).toMatchObject({ code: 'http_408', retryable: true });
  });

  it('records a 429\'s retry-after, in seconds or as a date', async () => {
    server.handle((_req, res) => json(res, 429, { error: 'slow down' }, { 'retry-after': '7' }));
    expect(failed(await run({ config: { method: 'GET', url: server.base } }))).toMatchObject({ code: 'http_429', retryable: true, meta: { status: 429, retryAfterMs: 7000 } });
    const now = Date.parse('2025-01-01T00:00:00Z');
    const clocked = new HttpExecutor({ clock: { now: () => now } });
    server.handle((_req, res) => json(res, 429, {}, { 'retry-after': 'Wed, 01 Jan 2025 00:00:30 GMT' }));
    expect(failed(await run({ config: { method: 'GET', url: server.base } }, clocked)).meta?.retryAfterMs).toBe(30_000);
  });

  it('does not follow a redirect, and says where it points', async () => {
    server.handle((_req, res) => {
      res.writeHead(302, { location: '/elsewhere' });
      res.end();
    });
    const result = failed(await run({ config: { method: 'GET', url: server.base } }));
    expect(result).toMatchObject({ code: 'http_302', retryable: false });
    expect(result.message).toContain('redirects are not followed: the server points to /elsewhere');
    expect(server.received).toHaveLength(1);
  });
});

describe('http executor: reply bodies', () => {
  it('keeps text/plain as text, and JSON that does not parse as text', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('{"looks": "like json"}');
    });
    expect(await run({ config: { method: 'GET', url: server.base } })).toMatchObject({ output: { body: '{"looks": "like json"}' } });
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{oops');
    });
    expect(await run({ config: { method: 'GET', url: server.base } })).toMatchObject({ output: { body: '{oops' } });
  });

  it('parses +json types, decodes the charset, and gives null for no body', async () => {
    server.handle((_req, res) => json(res, 200, { title: 'x' }, { 'content-type': 'application/problem+json' }));
    expect(await run({ config: { method: 'GET', url: server.base } })).toMatchObject({ output: { body: { title: 'x' } } });
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' });
      res.end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    });
    expect(await run({ config: { method: 'GET', url: server.base } })).toMatchObject({ output: { body: 'café' } });
    server.handle((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    expect(await run({ config: { method: 'DELETE', url: server.base }, input: null })).toMatchObject({ outcome: 'succeeded', output: { status: 204, body: null } });
  });

  it('decodes a gzip body', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(JSON.stringify({ zipped: true })));
    });
    expect(await run({ config: { method: 'GET', url: server.base } })).toMatchObject({ outcome: 'succeeded', output: { body: { zipped: true } } });
  });

  it('fails with response_too_large past the cap, announced or streamed', async () => {
    const small = new HttpExecutor({ maxResponseBytes: 1000 });
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '5000' });
      res.end('x'.repeat(5000));
    });
    const announced = failed(await run({ config: { method: 'GET', url: server.base } }, small));
    expect(announced).toMatchObject({ code: 'response_too_large', retryable: false, meta: { status: 200 } });
    expect(announced.message).toContain('5000 bytes, more than the 1000-byte limit');
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      for (let i = 0; i < 5; i++) res.write('x'.repeat(400));
      res.end();
    });
    expect(await run({ config: { method: 'GET', url: server.base } }, small)).toMatchObject({ outcome: 'failed', code: 'response_too_large' });
  });

  it('applies the cap to the decoded body too', async () => {
    const small = new HttpExecutor({ maxResponseBytes: 1000 });
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      res.end(gzipSync('x'.repeat(100_000)));
    });
    expect(await run({ config: { method: 'GET', url: server.base } }, small)).toMatchObject({ outcome: 'failed', code: 'response_too_large' });
  });
});
