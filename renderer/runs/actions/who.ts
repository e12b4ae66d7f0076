// Who acts, as the commands' `by` records it: the name last used in this browser, else "app".
// (The CLI defaults to $WEFT_USER; a browser has no such thing, so the app remembers the name.)
export const USER_KEY = 'weft.user';
const FALLBACK = 'app';

export function defaultActor(storage: Storage = window.localStorage): string {
  const name = storage.getItem(USER_KEY);
  return name !== null && name.trim() !== '' ? name : FALLBACK;
}

export function rememberActor(name: string, storage: Storage = window.localStorage): void {
  if (name.trim() !== '') storage.setItem(USER_KEY, name.trim());
}
