// The main window and its hardening: an isolated, sandboxed renderer without Node; navigation
// kept on the engine's origin; no new windows (links go to the system browser after the link
// check); every permission (camera, notifications, clipboard-read, ...) refused; only requests to
// the engine let out; and a Content-Security-Policy on every response. Each of these is asserted
// in test/electron/window-security.test.ts.
import { withContentPolicy } from './content-policy.ts';
import type { ElectronSeam, Rect, WindowSeam } from './electron-seam.ts';
import { checkExternalLink, isEngineUrl } from './link-check.ts';
import { requestAllowed } from './request-guard.ts';

export interface MainWindowOptions {
  preload: string;
  /** The engine's current origin (http://127.0.0.1:PORT); it changes when the engine restarts on another port. */
  engineOrigin(): string | undefined;
  bounds: Rect | undefined;
  maximized: boolean;
  /** Told about every refused link or request, for the log. */
  onRefused?(what: string): void;
}

export function createMainWindow(electron: ElectronSeam, options: MainWindowOptions): WindowSeam {
  const { bounds } = options;
  const window = electron.createWindow({
    width: bounds?.width ?? 1280,
    height: bounds?.height ?? 820,
    ...(bounds === undefined ? {} : { x: bounds.x, y: bounds.y }),
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Weft Studio',
    backgroundColor: '#1e1f22',
    webPreferences: {
      preload: options.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: true,
    },
  });
  if (options.maximized) window.maximize();
  window.on('ready-to-show', () => window.show());
  hardenNavigation(electron, window, options);
  hardenSession(window, options);
  return window;
}

function hardenNavigation(electron: ElectronSeam, window: WindowSeam, options: MainWindowOptions): void {
  const refuse = options.onRefused ?? (() => undefined);
  const keepOnEngine = (event: { preventDefault(): void }, url: string): void => {
    const origin = options.engineOrigin();
    if (origin !== undefined && isEngineUrl(url, origin) && url.startsWith('http:')) return;
    event.preventDefault();
    refuse(`navigation to ${url.slice(0, 200)}`);
  };
  window.webContents.on('will-navigate', keepOnEngine);
  window.webContents.on('will-redirect', keepOnEngine);
  window.webContents.setWindowOpenHandler(({ url }) => {
    const verdict = checkExternalLink(url, options.engineOrigin());
    if (verdict.ok) void electron.shell.openExternal(verdict.url).catch(() => refuse(`opening ${verdict.url} in the browser`));
    else refuse(`new window for ${url.slice(0, 200)}: ${verdict.reason}`);
    return { action: 'deny' };
  });
}

function hardenSession(window: WindowSeam, options: MainWindowOptions): void {
  const { session } = window;
  session.setPermissionRequestHandler((_permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.onBeforeRequest((details, callback) => {
    const allowed = requestAllowed(details.url, options.engineOrigin());
    if (!allowed) options.onRefused?.(`request to ${details.url.slice(0, 200)}`);
    callback({ cancel: !allowed });
  });
  session.onHeadersReceived((details, callback) => callback({ responseHeaders: withContentPolicy(details.responseHeaders) }));
}
