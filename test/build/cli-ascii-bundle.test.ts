// The one-file CLI bundle is all ASCII (build/bundle-cli.mjs escapes what esbuild leaves in
// comments), so bin/code-cache.js reads it at every start as a one-byte string, a plain copy,
// instead of decoding UTF-8 into a two-byte string (issue 20, step 9: the start of every command).
import { isAscii } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freshBundlePath } from '../../bin/source-stamp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('the one-file CLI bundle', () => {
  it('is all ASCII', () => {
    expect(freshBundlePath(ROOT), 'dist/cli is built by the global setup').toBeDefined();
    const bytes = readFileSync(join(ROOT, 'dist/cli/weft.cjs'));
    const first = bytes.findIndex((b) => b > 0x7f);
    expect(first === -1 ? '' : bytes.subarray(Math.max(0, first - 60), first + 20).toString('utf8'), 'text around the first non-ASCII byte').toBe('');
    expect(isAscii(bytes)).toBe(true);
  });
});
