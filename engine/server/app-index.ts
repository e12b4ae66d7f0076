// The app's page, served with a fresh nonce per response: the Content-Security-Policy allows
// only styles that carry it, and the page publishes it in `<meta property="csp-nonce">` (Vite's
// convention) for the code editor, which adds its own style element at run time.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { contentSecurityPolicyFor, newNonce } from './security.ts';

export function withNonceMeta(html: string, nonce: string): string {
  const meta = `<meta property="csp-nonce" nonce="${nonce}" />`;
  if (/<head[^>]*>/i.test(html)) return html.replace(/<head[^>]*>/i, (head) => `${head}\n    ${meta}`);
  // A page without a head element: the meta goes first, where the parser puts the head anyway.
  return html.replace(/^(<!doctype[^>]*>)?/i, (doctype) => `${doctype}${meta}`);
}

export function serveAppIndex(app: FastifyInstance, appDir: string): void {
  const handler = async (_request: unknown, reply: FastifyReply) => {
    const nonce = newNonce();
    const html = await readFile(join(appDir, 'index.html'), 'utf8');
    reply.header('content-security-policy', contentSecurityPolicyFor(join(appDir, 'index.html'), nonce));
    reply.header('cache-control', 'no-cache');
    reply.type('text/html; charset=utf-8');
    return withNonceMeta(html, nonce);
  };
  app.get('/', handler);
  app.get('/index.html', handler);
}
