// The API token arrives in the address's fragment (`#token=...`), which never reaches a server
// log or a referrer. It is moved to session storage at once and dropped from the address bar,
// so a copied URL or a screenshot does not carry it.
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
