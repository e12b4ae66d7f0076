// The server's guards: a random 256-bit token per start, compared in constant time; a Host check
// against DNS rebinding (only loopback names with the bound port); an Origin check that refuses
// cross-site requests and WebSocket upgrades (a browser sends Origin on every cross-site request
// and on every upgrade; same-origin fetches of the app's own page carry our own origin).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 random bytes, base64url: safe in a URL fragment, a header and a WebSocket subprotocol. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Constant-time equality (both sides hashed first, so their lengths leak nothing either). */
export function tokensEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** True when Host names this server: a loopback name with the bound port. */
export function hostAllowed(host: string | undefined, port: number): boolean {
  if (host === undefined) return false;
  return LOOPBACK_NAMES.some((name) => host.toLowerCase() === `${name}:${port}`);
}

/** True when there is no Origin (a non-browser client) or it is this server's own origin. */
export function originAllowed(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  return LOOPBACK_NAMES.some((name) => origin.toLowerCase() === `http://${name}:${port}`);
}

/** The token a request carries: `Authorization: Bearer T`, or for a WebSocket the subprotocol `weft.bearer.T`. */
export function presentedToken(authorization: string | undefined, protocols: string | undefined): string | undefined {
  const bearer = authorization === undefined ? undefined : /^Bearer ([A-Za-z0-9_-]{1,200})$/.exec(authorization)?.[1];
  if (bearer !== undefined) return bearer;
  for (const p of (protocols ?? '').split(',')) {
    const match = /^weft\.bearer\.([A-Za-z0-9_-]{1,200})$/.exec(p.trim());
    if (match?.[1] !== undefined) return match[1];
  }
  return undefined;
}

/** The app's Content-Security-Policy: own scripts, styles and workers only; API calls to this origin. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The policy of the validation worker's script, which differs from the page's in one word:
 * `'unsafe-eval'`, because ajv compiles each JSON Schema the validator checks into a function.
 * A worker follows the policy of its own script's response, so the page and its other scripts
 * keep the strict one; the worker holds no secrets and renders nothing.
 */
export const VALIDATION_WORKER_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-eval'");

/**
 * The policy for a file of the app, by its path on disk. With a nonce (the page itself), styles
 * that carry it are allowed too.
 */
export function contentSecurityPolicyFor(filePath: string, styleNonce?: string): string {
  if (/[\\/]validation-worker-[^\\/]*\.js$/.test(filePath)) return VALIDATION_WORKER_CONTENT_SECURITY_POLICY;
  return styleNonce === undefined ? CONTENT_SECURITY_POLICY : CONTENT_SECURITY_POLICY.replace("style-src 'self'", `style-src 'self' 'nonce-${styleNonce}'`);
}

/** A nonce for one response's policy: 128 random bits. */
export function newNonce(): string {
  return randomBytes(16).toString('base64');
}
