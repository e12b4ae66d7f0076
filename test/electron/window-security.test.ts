// Every security setting of the main window, asserted against what main hands Electron.
import { describe, expect, it } from 'vitest';
import { FALLBACK_CSP } from '../../electron/main/content-policy.ts';
import { createMainWindow } from '../../electron/main/window.ts';
import { FakeElectron, type FakeWindow } from './fake-electron.ts';

const ENGINE = 'http://127.0.0.1:43117';

function open(engineUp = true): { electron: FakeElectron; window: FakeWindow; refused: string[] } {
  const electron = new FakeElectron();
  const refused: string[] = [];
  createMainWindow(electron, { preload: '/app/dist/electron/preload.cjs', engineOrigin: () => (engineUp ? ENGINE : undefined), bounds: undefined, maximized: false, onRefused: (w) => refused.push(w) });
  const window = electron.windows[0];
  if (window === undefined) throw new Error('no window created');
  return { electron, window, refused };
}

const headersAfter = (window: FakeWindow, url: string, responseHeaders?: Record<string, string | string[]>): Record<string, string | string[]> | undefined => {
  let out: Record<string, string | string[]> | undefined;
  window.session.headersListener?.({ url, ...(responseHeaders === undefined ? {} : { responseHeaders }) }, (r) => {
    out = r.responseHeaders;
  });
  return out;
};

const cancelled = (window: FakeWindow, url: string): boolean | undefined => {
  let out: boolean | undefined;
  window.session.beforeRequest?.({ url }, (r) => {
    out = r.cancel;
  });
  return out;
};

describe('main window web preferences', () => {
  const { window } = open();
  const prefs = window.options.webPreferences;
  it('isolates the page from the preload', () => expect(prefs.contextIsolation).toBe(true));
  it('sandboxes the renderer', () => expect(prefs.sandbox).toBe(true));
  it('gives the page no Node, not in workers nor sub-frames', () => {
    expect(prefs.nodeIntegration).toBe(false);
    expect(prefs.nodeIntegrationInWorker).toBe(false);
    expect(prefs.nodeIntegrationInSubFrames).toBe(false);
  });
  it('keeps web security and refuses insecure content', () => {
    expect(prefs.webSecurity).toBe(true);
    expect(prefs.allowRunningInsecureContent).toBe(false);
  });
  it('has no webview tag', () => expect(prefs.webviewTag).toBe(false));
  it('loads the preload from the given path', () => expect(prefs.preload).toBe('/app/dist/electron/preload.cjs'));
  it('does not navigate to a file dropped on it', () => expect(prefs.navigateOnDragDrop).toBe(false));
});

describe('navigation', () => {
  it('stays on the engine origin', () => {
    const { window } = open();
    expect(window.webContents.navigate('will-navigate', `${ENGINE}/runs`)).toBe(true);
    expect(window.webContents.navigate('will-redirect', `${ENGINE}/`)).toBe(true);
  });
  it('is denied anywhere else, for navigation and redirects alike', () => {
    const { window, refused } = open();
    for (const url of ['https://example.com/', 'http://127.0.0.1:43118/', 'http://localhost:43117/', 'file:///etc/passwd', `http://user:pw@127.0.0.1:43117/`, 'javascript:alert(1)', 'ws://127.0.0.1:43117/']) {
      expect(window.webContents.navigate('will-navigate', url), url).toBe(false);
      expect(window.webContents.navigate('will-redirect', url), url).toBe(false);
    }
    expect(refused.length).toBeGreaterThan(0);
  });
  it('is denied everywhere while no engine is up', () => {
    const { window } = open(false);
    expect(window.webContents.navigate('will-navigate', `${ENGINE}/`)).toBe(false);
  });
});

describe('new windows', () => {
  it('are always denied; a checked web link opens in the system browser instead', () => {
    const { window, electron } = open();
    expect(window.webContents.openHandler?.({ url: 'https://weft.dev/docs' })).toEqual({ action: 'deny' });
    expect(electron.opened).toEqual(['https://weft.dev/docs']);
  });
  it('never open a link that fails the check', () => {
    const { window, electron } = open();
    for (const url of ['file:///etc/passwd', `${ENGINE}/#token=abc`, 'https://a:b@example.com/', 'javascript:alert(1)', `https://example.com/${'x'.repeat(3000)}`]) {
      expect(window.webContents.openHandler?.({ url })).toEqual({ action: 'deny' });
    }
    expect(electron.opened).toEqual([]);
  });
});

describe('permissions', () => {
  it('every request is refused', () => {
    const { window } = open();
    for (const permission of ['media', 'notifications', 'geolocation', 'clipboard-read', 'openExternal', 'fullscreen']) {
      let granted: boolean | undefined;
      window.session.permissionRequest?.(permission, (g) => {
        granted = g;
      });
      expect(granted, permission).toBe(false);
    }
  });
  it('every check is refused', () => {
    const { window } = open();
    expect(window.session.permissionCheck).toBeDefined();
    for (const permission of ['media', 'notifications', 'clipboard-sanitized-write', 'hid']) expect(window.session.permissionCheck?.(permission), permission).toBe(false);
  });
});

describe('content security policy', () => {
  it("keeps the engine's own policy (with its nonce) untouched", () => {
    const { window } = open();
    const engineCsp = "default-src 'none'; style-src 'self' 'nonce-abc'";
    const out = headersAfter(window, `${ENGINE}/`, { 'content-security-policy': [engineCsp], 'x-frame-options': ['DENY'] });
    expect(out?.['content-security-policy']).toEqual([engineCsp]);
    expect(out?.['Content-Security-Policy']).toBeUndefined();
    expect(out?.['x-frame-options']).toEqual(['DENY']);
  });
  it('sets a default-src none policy on a response without one', () => {
    const { window } = open();
    expect(headersAfter(window, `${ENGINE}/api/x`, { 'content-type': ['application/json'] })?.['Content-Security-Policy']).toEqual([FALLBACK_CSP]);
    expect(headersAfter(window, `${ENGINE}/other`)?.['Content-Security-Policy']).toEqual([FALLBACK_CSP]);
    expect(headersAfter(window, `${ENGINE}/empty`, { 'Content-Security-Policy': [''] })?.['Content-Security-Policy']).toEqual([FALLBACK_CSP]);
    expect(FALLBACK_CSP).toMatch(/^default-src 'none'/);
  });
});

describe('requests', () => {
  it('to the engine (pages, API, WebSocket) go out', () => {
    const { window } = open();
    for (const url of [`${ENGINE}/`, `${ENGINE}/api/workflows`, 'ws://127.0.0.1:43117/api/events', 'devtools://devtools/bundled/inspector.html', 'data:image/png;base64,AAAA']) expect(cancelled(window, url), url).toBe(false);
  });
  it('to any other origin are cancelled', () => {
    const { window } = open();
    for (const url of ['https://example.com/pixel.gif', 'http://127.0.0.1:9999/', 'http://localhost:43117/', 'file:///etc/passwd', 'https://127.0.0.1:43117/', 'wss://127.0.0.1:43117/']) expect(cancelled(window, url), url).toBe(true);
  });
  it('are all cancelled while no engine is up, but devtools', () => {
    const { window } = open(false);
    expect(cancelled(window, `${ENGINE}/`)).toBe(true);
    expect(cancelled(window, 'devtools://devtools/x')).toBe(false);
  });
});
