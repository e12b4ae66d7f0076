// `weft --version` reports the version in package.json, the one place it is kept.
import { readFileSync } from 'node:fs';

export function readVersion(): string {
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  const parsed: unknown = JSON.parse(text);
  const version = parsed !== null && typeof parsed === 'object' && 'version' in parsed ? parsed.version : undefined;
  return typeof version === 'string' ? version : 'unknown';
}
