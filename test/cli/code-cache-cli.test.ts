// The real `weft` with its code cache (bin/code-cache.js, kept in WEFT_CODE_CACHE_DIR here): a
// command answers the same bytes and exit code with the cache off, on its first start (which
// writes the cache), on a start that uses it, and when the cache folder is broken (a file where
// the folder should be, a folder it may not write, a damaged cache file): never a word about it.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheFileOf } from '../../bin/code-cache.js';
import { freshBundlePath } from '../../bin/source-stamp.js';
import { REPO_ROOT, runWeft, type WeftResult } from './run-weft.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-code-cache-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ARGS = ['validate', join(REPO_ROOT, 'examples/record-update.weft.json')];
const NOBODY = 65534;
let plain: WeftResult;

const withCache = (cacheDir: string, uid?: number): Promise<WeftResult> => runWeft(ARGS, dir, { env: { WEFT_CODE_CACHE_DIR: cacheDir }, ...(uid === undefined ? {} : { uid }) });

beforeAll(async () => {
  expect(freshBundlePath(REPO_ROOT), 'dist/cli is built by the global setup').toBeDefined();
  expect(existsSync(join(REPO_ROOT, 'dist/cli/weft.cjs'))).toBe(true);
  plain = await runWeft(ARGS, dir, { env: { WEFT_CODE_CACHE_DIR: '' } });
  expect(plain.code).toBe(0);
  expect(plain.stdout).toMatch(/valid/);
});

describe('weft with its code cache', () => {
  it('writes the cache on the first start, uses it on the next, and answers the same', async () => {
    const cacheDir = join(dir, 'fresh');
    expect(await withCache(cacheDir)).toEqual(plain);
    const cacheFile = cacheFileOf(cacheDir, readFileSync(join(REPO_ROOT, 'dist/cli/weft.cjs'), 'utf8'), 'validate');
    expect(readdirSync(cacheDir)).toEqual([cacheFile.slice(cacheDir.length + 1)]);
    expect(await withCache(cacheDir)).toEqual(plain);
  });

  it('starts normally when the cache folder is a file', async () => {
    const blocker = join(dir, 'blocker');
    writeFileSync(blocker, 'not a folder');
    expect(await withCache(join(blocker, 'cache'))).toEqual(plain);
    expect(await withCache(blocker)).toEqual(plain);
    expect(readFileSync(blocker, 'utf8')).toBe('not a folder');
  });

  it.runIf(process.platform !== 'win32')('starts normally when the cache folder may not be written', async () => {
    const cacheDir = join(dir, 'read-only');
    mkdirSync(cacheDir);
    chmodSync(cacheDir, 0o555);
    chmodSync(dir, 0o755);
    // Root writes anywhere: the child drops to nobody when the test runs as root.
    const uid = process.getuid?.() === 0 ? NOBODY : undefined;
    expect(await withCache(cacheDir, uid)).toEqual(plain);
    expect(readdirSync(cacheDir)).toEqual([]);
  });

  it('compiles afresh when the cache file is damaged, and replaces it', async () => {
    const cacheDir = join(dir, 'damaged');
    expect(await withCache(cacheDir)).toEqual(plain);
    const cacheFile = cacheFileOf(cacheDir, readFileSync(join(REPO_ROOT, 'dist/cli/weft.cjs'), 'utf8'), 'validate');
    const good = readFileSync(cacheFile);
    writeFileSync(cacheFile, 'not a V8 code cache');
    expect(await withCache(cacheDir)).toEqual(plain);
    // Replaced by a real cache again (its size varies a little from start to start).
    expect(readFileSync(cacheFile).length).toBeGreaterThan(good.length / 2);
  });
});
