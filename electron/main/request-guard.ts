// Which requests the window's session lets out. The app talks only to its engine (pages, assets,
// the API and its WebSocket); anything else a page tries - a tracking pixel in a rendered
// description, a script from a CDN, a file:// read - is cancelled before it leaves. DevTools'
// own pages are let through so a developer build can inspect the app; data: and blob: URLs never
// leave the process and are governed by the page's Content-Security-Policy instead.
import { isEngineUrl } from './link-check.ts';

const LOCAL_SCHEMES = ['devtools:', 'data:', 'blob:'];

/** True when a request to `url` may go out; `engineOrigin` is undefined while no engine is up. */
export function requestAllowed(url: string, engineOrigin: string | undefined): boolean {
  if (LOCAL_SCHEMES.some((scheme) => url.startsWith(scheme))) return true;
  return engineOrigin !== undefined && isEngineUrl(url, engineOrigin);
}
