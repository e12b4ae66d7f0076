// The server's smaller faults, over raw HTTP on a real server: a refused static path, a malformed
// URL, a plain GET of the stream, a doubled Host header and a save past the largest version. Each
// answers the API's one error body with the security headers, after the Host, Origin and token
// checks, and writes nothing.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorBody } from '../../shared/api/api-error.ts';
import { serve, type Serving } from '../../engine/server/serve.ts';
import { storeDigest } from '../store-digest.ts';

const TOKEN = 'faults-token-0123456789abcdefghijklmnopqrstuvwxyzABCDEF';

let root: string;
let workspace: string;
let serving: Serving;
const dbPath = () => join(root, 'weft.db');

interface Raw {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * One request written byte for byte on a socket, so the test controls what fetch and http.request
 * would tidy up: a path as sent, a header twice. `Connection: close` ends the answer.
 */
function rawRequest(lines: readonly string[]): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = connect(serving.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
    socket.write(`${[...lines, 'Connection: close', '', ''].join('\r\n')}`);
  });
}

const host = () => `Host: 127.0.0.1:${serving.port}`;
const bearer = `Authorization: Bearer ${TOKEN}`;

/** The answer is the API's error body with `code`, and carries the security headers. */
function expectEnvelope(reply: Raw, status: number, code: string): void {
  expect(reply.status, reply.body).toBe(status);
  expect(reply.headers['content-type']).toMatch(/^application\/json/);
  const body = ApiErrorBody.parse(JSON.parse(reply.body));
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(10);
  expect(reply.headers['x-content-type-options']).toBe('nosniff');
  expect(reply.headers['x-frame-options']).toBe('DENY');
  expect(reply.headers['referrer-policy']).toBe('no-referrer');
}

const workflow = (version: number) => ({
  format: 'weft/v1',
  id: 'big-version',
  version,
  name: 'Big version',
  steps: [
    { id: 'shape', kind: 'transform', config: { expression: '{"n": 1}' } },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'e1', from: 'shape', to: 'done' }],
});

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'weft-faults-'));
  workspace = join(root, 'workspace');
  const app = join(root, 'app');
  mkdirSync(workspace);
  mkdirSync(join(app, 'assets'), { recursive: true });
  writeFileSync(join(app, 'index.html'), '<!doctype html><title>t</title>');
  writeFileSync(join(app, 'assets', 'index-abc123.js'), 'console.log(1)');
  writeFileSync(join(app, '.env'), 'SECRET=1');
  writeFileSync(join(root, 'package.json'), '{"name": "outside"}');
  writeFileSync(join(workspace, 'big-version.weft.json'), JSON.stringify(workflow(Number.MAX_SAFE_INTEGER)));
  serving = await serve({ workspace, storePath: dbPath(), port: 0, appDir: app, version: '0.0.0-test', token: TOKEN, env: { ...process.env, WEFT_CONFIG_DIR: join(root, 'config') } });
});

afterAll(async () => {
  await serving?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('refused static paths', () => {
  for (const path of ['/assets/', '/.env', '/%2e%2e/package.json', '/assets/%2e%2e/%2e%2e/package.json']) {
    it(`${path}: 404 not-found, never a 500`, async () => {
      const reply = await rawRequest([`GET ${path} HTTP/1.1`, host()]);
      expectEnvelope(reply, 404, 'not-found');
      expect(reply.body).not.toContain('SECRET');
      expect(reply.body).not.toContain('outside');
    });
  }

  it('a file of the app is still served', async () => {
    const reply = await rawRequest([`GET /assets/index-abc123.js HTTP/1.1`, host()]);
    expect(reply.status).toBe(200);
    expect(reply.body).toBe('console.log(1)');
  });
});

describe('a malformed URL', () => {
  it('with the token: 400 bad-input in the error body, with the security headers', async () => {
    const reply = await rawRequest(['GET /api/runs/%zz HTTP/1.1', host(), bearer]);
    expectEnvelope(reply, 400, 'bad-input');
    expect(ApiErrorBody.parse(JSON.parse(reply.body)).error.message).toContain('%zz');
  });

  it('is checked for Host, Origin and token first', async () => {
    expectEnvelope(await rawRequest(['GET /api/runs/%zz HTTP/1.1', 'Host: attacker.example', bearer]), 421, 'misdirected');
    expectEnvelope(await rawRequest(['GET /api/runs/%zz HTTP/1.1', host(), 'Origin: http://evil.example', bearer]), 403, 'forbidden');
    expectEnvelope(await rawRequest(['GET /api/runs/%zz HTTP/1.1', host()]), 401, 'unauthorized');
    expectEnvelope(await rawRequest(['GET /%zz HTTP/1.1', 'Host: attacker.example']), 421, 'misdirected');
  });
});

describe('GET /api/stream without an upgrade', () => {
  it('answers 426 upgrade-required saying how to connect, after the token check', async () => {
    expectEnvelope(await rawRequest(['GET /api/stream HTTP/1.1', host()]), 401, 'unauthorized');
    const reply = await rawRequest(['GET /api/stream HTTP/1.1', host(), bearer]);
    expectEnvelope(reply, 426, 'upgrade-required');
    expect(ApiErrorBody.parse(JSON.parse(reply.body)).error.message).toContain('WebSocket');
  });
});

describe('a doubled Host header', () => {
  it('is refused whichever value comes first', async () => {
    expectEnvelope(await rawRequest(['GET /api/health HTTP/1.1', host(), 'Host: attacker.example', bearer]), 400, 'bad-input');
    expectEnvelope(await rawRequest(['GET /api/health HTTP/1.1', 'Host: attacker.example', host(), bearer]), 400, 'bad-input');
    expectEnvelope(await rawRequest(['GET / HTTP/1.1', host(), host()]), 400, 'bad-input');
  });

  it('one Host is answered as before', async () => {
    const reply = await rawRequest(['GET /api/health HTTP/1.1', host(), bearer]);
    expect(reply.status).toBe(200);
  });
});

describe('saving past the largest version', () => {
  it('a run of version 2^53-1 makes a changed save refused (409), and the file and store stay as they were', async () => {
    const started = await fetch(`${serving.url}/api/runs`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ workflow: 'big-version', input: {} }) });
    expect(started.status).toBe(201);
    const file = join(workspace, 'big-version.weft.json');
    const before = { file: readFileSync(file, 'utf8'), store: storeDigest(dbPath()) };
    const changed = { ...workflow(Number.MAX_SAFE_INTEGER), name: 'Renamed' };
    const reply = await fetch(`${serving.url}/api/workflows/big-version`, { method: 'PUT', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ definition: changed }) });
    const body = ApiErrorBody.parse(await reply.json());
    expect(reply.status).toBe(409);
    expect(body.error.code).toBe('refused');
    expect(body.error.message).toContain(String(Number.MAX_SAFE_INTEGER));
    expect(body.error.message).toMatch(/nothing was written/);
    expect(readFileSync(file, 'utf8')).toBe(before.file);
    expect(storeDigest(dbPath())).toBe(before.store);
  });
});
