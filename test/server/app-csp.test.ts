// The app's static files are served under a strict Content-Security-Policy; only the validation
// worker's script may evaluate generated code (ajv compiles JSON Schemas into functions), and a
// worker follows its own script's policy, so the page never gets 'unsafe-eval'.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Serving } from '../../engine/server/serve.ts';

let serving: Serving | undefined;

beforeAll(async () => {
  const root = mkdtempSync(join(tmpdir(), 'weft-csp-'));
  const workspace = join(root, 'ws');
  const app = join(root, 'app');
  mkdirSync(workspace);
  mkdirSync(join(app, 'assets'), { recursive: true });
  writeFileSync(join(app, 'index.html'), '<!doctype html><title>t</title>');
  writeFileSync(join(app, 'assets', 'index-abc123.js'), 'console.log(1)');
  writeFileSync(join(app, 'assets', 'index-DMu4EtJZ.js'), 'console.log(2)');
  writeFileSync(join(app, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(app, 'assets', 'validation-worker-Bx9_z.js'), 'self.onmessage = () => {}');
  writeFileSync(join(app, 'assets', 'layout-worker-Q1.js'), 'self.onmessage = () => {}');
  serving = await serve({ workspace, storePath: join(root, 'weft.db'), port: 0, appDir: app, version: '0.0.0-test', token: 'csp-token-0123456789abcdefghijklmnopqrstuvwxyz', env: { ...process.env, WEFT_CONFIG_DIR: join(root, 'config') } });
});

afterAll(async () => {
  await serving?.stop();
});

const policyOf = async (path: string): Promise<string> => {
  const response = await fetch(`${serving?.url ?? ''}${path}`);
  expect(response.status).toBe(200);
  return response.headers.get('content-security-policy') ?? '';
};

/** A GET with If-None-Match, as a browser revalidating its copy sends it. */
function conditionalGet(url: string, etag: string): Promise<{ status: number | undefined; cacheControl: string | undefined }> {
  return new Promise((resolve, reject) => {
    const request = get(url, { headers: { 'if-none-match': etag } }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode, cacheControl: response.headers['cache-control'] }));
    });
    request.on('error', reject);
  });
}

describe('caching of the app', () => {
  it('keeps a content-hashed asset for good, and asks again for the page and anything unhashed', async () => {
    const hashed = await fetch(`${serving?.url ?? ''}/assets/index-DMu4EtJZ.js`);
    expect(hashed.status).toBe(200);
    expect(hashed.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // A browser holding it from an older server (max-age=0) revalidates once and learns the same.
    // (node:http, not fetch: fetch makes a request with If-None-Match uncacheable, and the server then sends the file.)
    const again = await conditionalGet(`${serving?.url ?? ''}/assets/index-DMu4EtJZ.js`, hashed.headers.get('etag') ?? '');
    expect(again.status).toBe(304);
    expect(again.cacheControl).toBe('public, max-age=31536000, immutable');
    for (const path of ['/assets/index-abc123.js', '/favicon.svg']) {
      const response = await fetch(`${serving?.url ?? ''}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('cache-control'), path).toBe('no-store');
    }
    for (const path of ['/', '/index.html']) expect((await fetch(`${serving?.url ?? ''}${path}`)).headers.get('cache-control'), path).toBe('no-store');
    const missing = await fetch(`${serving?.url ?? ''}/assets/gone-DMu4EtJZ.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control')).not.toContain('immutable');
  });
});

describe('content security policy of the app', () => {
  it('the page and its scripts may not evaluate strings', async () => {
    for (const path of ['/', '/index.html', '/assets/index-abc123.js', '/assets/layout-worker-Q1.js']) {
      const policy = await policyOf(path);
      expect(policy, path).toContain("script-src 'self'");
      expect(policy, path).not.toContain('unsafe-eval');
      expect(policy, path).toContain("default-src 'none'");
    }
  });

  it('the page allows only styles with its own fresh nonce, which it publishes for the code editor', async () => {
    const pages = await Promise.all(['/', '/', '/index.html'].map((path) => fetch(`${serving?.url ?? ''}${path}`)));
    const nonces = await Promise.all(
      pages.map(async (response) => {
        const policy = response.headers.get('content-security-policy') ?? '';
        const inHeader = /style-src 'self' 'nonce-([A-Za-z0-9+/=]+)'/.exec(policy)?.[1];
        const inPage = /<meta property="csp-nonce" nonce="([^"]+)" \/>/.exec(await response.text())?.[1];
        expect(inHeader).toBeDefined();
        expect(inPage).toBe(inHeader);
        return inHeader;
      }),
    );
    expect(new Set(nonces).size).toBe(3);
  });

  it("the validation worker alone may, and otherwise keeps the page's policy", async () => {
    const policy = await policyOf('/assets/validation-worker-Bx9_z.js');
    expect(policy).toContain("script-src 'self' 'unsafe-eval'");
    expect(policy.replace(" 'unsafe-eval'", '')).toBe(await policyOf('/assets/index-abc123.js'));
  });
});
