// The engine's bearer token: 32 random bytes, base64url (43 characters), the form `weft serve`
// accepts in WEFT_TOKEN. It reaches the engine only through its environment, never its command
// line (which every user of the machine can read with ps), and is scrubbed from anything the
// supervisor repeats: logs and start errors.
import { randomBytes } from 'node:crypto';

export function newEngineToken(): string {
  return randomBytes(32).toString('base64url');
}

/** `text` with every occurrence of `token` replaced, for logs and error messages. */
export function scrubToken(text: string, token: string): string {
  return token === '' ? text : text.split(token).join('[token]');
}
