// URLs go into attempt messages and events, which people read and copy. Credentials written into
// a URL (`https://user:secret@host/`) must not travel with them, so messages show the URL without
// its user name and password. The query is kept: it is usually what tells requests apart.

/** The URL as messages show it: everything but the user name and password. */
export function shownUrl(url: URL): string {
  if (url.username === '' && url.password === '') return url.href;
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  return copy.href;
}

/** Text that did not parse as a URL, with anything that looks like `user:password@` masked. */
export function shownUrlText(text: string): string {
  return text.replace(/^([^\s/?#]*:\/\/)[^\s/?#@]*@/, '$1***@');
}
