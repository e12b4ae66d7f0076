// The app's entry: take the token from the address (or, in the desktop app, from the shell),
// start the session (HTTP client and live stream; again when an address with a new token is opened
// in this tab), follow the theme and the address, and render.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './theme/tokens.css';
import './theme/app.css';
import './theme/controls.css';
import './graph/graph.css';
import { App } from './shell/app.tsx';
import { followAddressToken, takeToken } from './api/token.ts';
import { startSession } from './core/start-session.ts';
import { followSystemTheme } from './core/theme-store.ts';
import { followHashChanges } from './core/route-store.ts';
import { findDesktopApi } from './core/desktop-bridge.ts';
import { startDesktopSession } from './desktop/desktop-session.ts';
import { prefetchFollowingRoutes } from './core/route-prefetch.ts';

followSystemTheme();
const desktop = findDesktopApi(window);
if (desktop === null) {
  // The address a restarted `weft serve` printed, opened in this tab: start over with its token.
  let stop = startSession(takeToken(window.location, window.history, window.sessionStorage));
  followAddressToken(window, (token) => {
    stop();
    stop = startSession(token);
  });
  prefetchFollowingRoutes();
}
followHashChanges();

function render(): void {
  const root = document.getElementById('root');
  if (root === null) throw new Error('index.html has no #root element');
  createRoot(root).render(
    <StrictMode>
      <App desktop={desktop} />
    </StrictMode>,
  );
}

if (desktop === null) {
  render();
} else {
  // Pages fetch as they mount: render once the shell has said where the engine is.
  void startDesktopSession(desktop, { storage: window.sessionStorage, origin: window.location.origin }).then(() => {
    prefetchFollowingRoutes();
    render();
  });
}
