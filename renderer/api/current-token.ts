// The app's one token source: the token the session runs on. The session sets it (from the
// address or the desktop shell, token.ts), and renderer/api/clients.ts builds every client and the
// stream from it, so no client reads the token anywhere else.
let current: string | null = null;

/** The token the session runs on; null before one is known (no token in the address, or refused from the start). */
export function currentToken(): string | null {
  return current;
}

/** Sets the token every client is built on (the session does, once it starts or takes a new token). */
export function setCurrentToken(token: string | null): void {
  current = token;
}
