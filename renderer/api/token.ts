// The API token arrives in the address's fragment (`#token=...`), which never reaches a server
// log or a referrer. It is moved to session storage at once and dropped from the address bar,
// so a copied URL or a screenshot does not carry it. In the desktop app the token comes from the
// shell's preload instead (renderer/desktop/desktop-session.ts) and is kept in the same place, so
// every client that reads it finds it. This file is the app's one token source: the session
// sets the token it runs on (`useToken`), and renderer/api/clients.ts builds every client from it.
const KEY = 'weft.token';

export function takeToken(location: Location, history: History, storage: Storage): string | null {
  const match = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (match?.[1] !== undefined) {
    storage.setItem(KEY, match[1]);
    history.replaceState(null, '', `${location.pathname}${location.search}#/`);
    return match[1];
  }
  return storage.getItem(KEY);
}

/** Keeps a token from elsewhere (the desktop shell) where takeToken and the clients read it. */
export function storeToken(storage: Storage, token: string): void {
  storage.setItem(KEY, token);
}

/**
 * Calls `onToken` with the token of an address opened in this tab while the app runs (the one a
 * restarted `weft serve` printed): it differs from the page's own address only after `#`, which
 * does not reload the page. Register it before the route follows the fragment, so the route sees
 * the address without the token. Returns the function that stops following.
 */
export function followAddressToken(win: Window, onToken: (token: string) => void): () => void {
  const take = () => {
    if (!/(?:^#|&)token=/.test(win.location.hash)) return;
    const token = takeToken(win.location, win.history, win.sessionStorage);
    if (token !== null) onToken(token);
  };
  win.addEventListener('hashchange', take);
  return () => win.removeEventListener('hashchange', take);
}
