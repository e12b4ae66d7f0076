// `weft --version` reports the version in package.json, the one place it is kept. The bundled
// CLI (build/bundle-cli.mjs) has it compiled in as WEFT_BUILD_VERSION, since dist/ sits at
// another depth than this file.
import { readFileSync } from 'node:fs';

declare const WEFT_BUILD_VERSION: string | undefined;

export function readVersion(): string {
  if (typeof WEFT_BUILD_VERSION === 'string') return WEFT_BUILD_VERSION;
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  const parsed: unknown = JSON.parse(text);
  const version = parsed !== null && typeof parsed === 'object' && 'version' in parsed ? parsed.version : undefined;
  return typeof version === 'string' ? version : 'unknown';
}
