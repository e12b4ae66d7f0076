// Which links may leave the app for the system browser. A page (or a workflow's text rendered in
// it) can ask to open any string; only plain web and mail links go out, never one that carries
// credentials, never one to the engine itself (its API holds the workspace, and a browser tab
// there would be a second client outside the window's guards), and never an absurdly long one.

export const MAX_EXTERNAL_URL_LENGTH = 2048;
const SCHEMES = new Set(['http:', 'https:', 'mailto:']);

export type LinkVerdict = { ok: true; url: string } | { ok: false; reason: string };

/** Decides whether `raw` may be opened in the system browser; `engineOrigin` is http://127.0.0.1:PORT. */
export function checkExternalLink(raw: string, engineOrigin: string | undefined): LinkVerdict {
  if (raw.length > MAX_EXTERNAL_URL_LENGTH) return { ok: false, reason: `the link is ${raw.length} characters long; at most ${MAX_EXTERNAL_URL_LENGTH} are opened` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'not an absolute URL; only http, https and mailto links open in the browser' };
  }
  if (!SCHEMES.has(url.protocol)) return { ok: false, reason: `${url.protocol} links are not opened; only http, https and mailto links open in the browser` };
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'the link carries a user name or password; such links are not opened' };
  if (url.protocol !== 'mailto:' && url.hostname === '') return { ok: false, reason: 'the link names no host' };
  if (engineOrigin !== undefined && url.origin === new URL(engineOrigin).origin) {
    return { ok: false, reason: "the link points at the app's own engine; it opens inside the app, not in a browser" };
  }
  return { ok: true, url: url.href };
}

/** True for a URL of the engine's origin over http or its WebSocket (ws) twin. */
export function isEngineUrl(raw: string, engineOrigin: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  const engine = new URL(engineOrigin);
  if (url.username !== '' || url.password !== '') return false;
  return (url.protocol === 'http:' || url.protocol === 'ws:') && url.host === engine.host;
}
