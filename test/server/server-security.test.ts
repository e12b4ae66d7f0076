// The real server on a random port over a real store: every refused request gets its documented
// status and error body, and leaves the store exactly as it was.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorBody } from '../../shared/api/api-error.ts';
import { serve, type Serving } from '../../engine/server/serve.ts';
import { storeDigest as digestOf } from '../store-digest.ts';

const TOKEN = 'test-token-0123456789abcdefghijklmnopqrstuvwxyzABCDEF';

const workflow = (id: string) => ({
  format: 'weft/v1',
  id,
  version: 1,
  name: `Workflow ${id}`,
  steps: [
    { id: 'shape', kind: 'transform', config: { expression: '{"n": 1}' } },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'e1', from: 'shape', to: 'done' }],
});

let root: string;
let workspace: string;
let serving: Serving;
const dbPath = () => join(root, 'weft.db');

const storeDigest = (): string => digestOf(dbPath());

interface Reply {
  status: number;
  body: unknown;
}

/** A raw HTTP request, so Host and Origin can be anything (fetch would not let a test set Host). */
function send(method: string, path: string, headers: Record<string, string>, body?: string | Buffer): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ agent: false, host: '127.0.0.1', port: serving.port, method, path, headers: { host: `127.0.0.1:${serving.port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON (a static file)
        }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const auth = { authorization: `Bearer ${TOKEN}` };
const json = { ...auth, 'content-type': 'application/json' };

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'weft-server-'));
  workspace = join(root, 'workspace');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'inside.weft.json'), JSON.stringify(workflow('inside')));
  const outside = join(root, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.weft.json'), JSON.stringify(workflow('secret')));
  symlinkSync(join(outside, 'secret.weft.json'), join(workspace, 'escape.weft.json'));
  serving = await serve({ workspace, storePath: dbPath(), port: 0, appDir: undefined, version: '0.0.0-test', token: TOKEN, env: { ...process.env, WEFT_CONFIG_DIR: join(root, 'config') } });
  // One run, so the store has rows that a wrongly accepted request could change.
  const started = await send('POST', '/api/runs', json, JSON.stringify({ workflow: 'inside', input: {} }));
  expect(started.status).toBe(201);
});

afterAll(async () => {
  await serving?.stop();
  rmSync(root, { recursive: true, force: true });
});

const refusals: { name: string; method: string; path: string; headers: Record<string, string>; body?: string | Buffer; status: number; code: string }[] = [
  { name: 'no token', method: 'POST', path: '/api/runs', headers: { 'content-type': 'application/json' }, body: '{"workflow":"inside","input":{}}', status: 401, code: 'unauthorized' },
  { name: 'a wrong token', method: 'POST', path: '/api/runs', headers: { authorization: 'Bearer wrong-token', 'content-type': 'application/json' }, body: '{"workflow":"inside","input":{}}', status: 401, code: 'unauthorized' },
  { name: 'a token in another scheme', method: 'GET', path: '/api/runs', headers: { authorization: `Basic ${TOKEN}` }, status: 401, code: 'unauthorized' },
  { name: 'a foreign Origin', method: 'POST', path: '/api/runs', headers: { ...json, origin: 'http://evil.example' }, body: '{"workflow":"inside","input":{}}', status: 403, code: 'forbidden' },
  { name: 'a non-loopback Host', method: 'POST', path: '/api/runs', headers: { ...json, host: 'attacker.example:80' }, body: '{"workflow":"inside","input":{}}', status: 421, code: 'misdirected' },
  { name: 'the right Host name on another port', method: 'GET', path: '/api/health', headers: { ...auth, host: '127.0.0.1:1' }, status: 421, code: 'misdirected' },
  { name: 'a workflow whose file leads out of the workspace', method: 'POST', path: '/api/runs', headers: json, body: '{"workflow":"secret","input":{}}', status: 404, code: 'not-found' },
  { name: 'a workflow id that is a path', method: 'GET', path: '/api/workflows/..%2F..%2Fetc%2Fpasswd', headers: auth, status: 400, code: 'bad-input' },
  { name: 'a static path out of the app', method: 'GET', path: '/..%2F..%2F..%2Fetc%2Fpasswd', headers: {}, status: 404, code: 'not-found' },
  { name: 'a body over the limit', method: 'POST', path: '/api/runs', headers: json, body: JSON.stringify({ workflow: 'inside', input: { pad: 'x'.repeat(5 * 1024 * 1024) } }), status: 413, code: 'too-large' },
  { name: 'malformed JSON', method: 'POST', path: '/api/runs', headers: json, body: '{"workflow": "inside", "input": {', status: 400, code: 'bad-input' },
  { name: 'a body that breaks the schema', method: 'POST', path: '/api/runs', headers: json, body: '{"workflow":"inside","input":{},"extra":1}', status: 400, code: 'bad-input' },
  { name: 'an unknown run', method: 'POST', path: '/api/runs/nope/actions', headers: json, body: '{"action":"pause"}', status: 404, code: 'not-found' },
  { name: 'a 1,000-character run id', method: 'GET', path: `/api/runs/${'r'.repeat(1_000)}`, headers: auth, status: 400, code: 'bad-input' },
  { name: 'an unknown route', method: 'GET', path: '/api/nothing', headers: auth, status: 404, code: 'not-found' },
];

describe('refused requests', () => {
  for (const r of refusals) {
    it(`${r.name}: ${r.status} ${r.code}, and the store is unchanged`, async () => {
      const before = storeDigest();
      const reply = await send(r.method, r.path, r.headers, r.body);
      expect(reply.status).toBe(r.status);
      const body = ApiErrorBody.parse(reply.body);
      expect(body.error.code).toBe(r.code);
      expect(body.error.message.length).toBeGreaterThan(10);
      expect(storeDigest()).toBe(before);
    });
  }

  it('a refused action says why with 409, and nothing is written', async () => {
    const { body } = await send('GET', '/api/runs', auth);
    const runId = (body as { runs: { id: string; state: string }[] }).runs[0]?.id ?? '';
    const before = storeDigest();
    const reply = await send('POST', `/api/runs/${runId}/actions`, json, JSON.stringify({ action: 'retry', step: 'shape', reason: 'again' }));
    expect(reply.status).toBe(409);
    expect(ApiErrorBody.parse(reply.body).error.message).toMatch(/cannot retry .*nothing was changed/);
    expect(storeDigest()).toBe(before);
  });

  it('the symlinked file is listed with an error, and its contents are never served', async () => {
    const reply = await send('GET', '/api/workflows', auth);
    const list = (reply.body as { workflows: { file: string; id: string | null; errors: number }[] }).workflows;
    const escape = list.find((w) => w.file === 'escape.weft.json');
    expect(escape).toMatchObject({ id: null, errors: 1 });
    expect(JSON.stringify(reply.body)).not.toContain('Workflow secret');
  });
});

describe('accepted requests', () => {
  it('health names the workspace and the store', async () => {
    const reply = await send('GET', '/api/health', auth);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ version: '0.0.0-test', store: dbPath() });
  });

  it('the endpoint file is readable by its owner only and holds the token', () => {
    const text = readFileSync(serving.endpointFile, 'utf8');
    expect(JSON.parse(text)).toMatchObject({ port: serving.port, token: TOKEN });
  });
});
