// bin/code-cache.js runs the CLI's one-file bundle with V8's code cache. A cache must never run
// code other than the file's text as it is now: V8 itself checks only the text's length, so the
// loader looks a cache up by the text's SHA-256. And the cache is an optimisation only: a cache
// folder that cannot be made or written, or a damaged cache file, gives a normal start, silently.
// Real files and real V8 caches, on small CommonJS modules in a temporary folder, each load in a
// new Node process (V8 keeps compiled scripts in memory too, so a second load in one process
// would not read the cache file at all).
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheFileOf } from '../../bin/code-cache.js';

const dir = mkdtempSync(join(tmpdir(), 'weft-code-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A module of many functions (so its cache is worth having) answering `answer`. */
function moduleText(answer: string): string {
  const helpers = Array.from({ length: 50 }, (_, i) => `function helper${i}(x) { return x + ${i}; }`).join('\n');
  return `${helpers}\nconst ANSWER = ${JSON.stringify(answer)};\nexports.answer = () => ANSWER;\nexports.sum = () => helper1(1) + helper49(1);\n`;
}

const LOADER = new URL('../../bin/code-cache.js', import.meta.url).href;
// In a new process: loads the file as bin/weft.js does, runs it, saves the cache, and says how.
const CHILD = `
  const { loadWithCodeCache } = await import(${JSON.stringify(LOADER)});
  const [file, cacheDir, key] = JSON.parse(process.argv[1]);
  const loaded = loadWithCodeCache(file, { cacheDir: cacheDir ?? undefined, key });
  const { answer, sum } = loaded.exports;
  if (sum() !== 52) throw new Error('the module computed ' + sum());
  loaded.save();
  process.stdout.write(JSON.stringify({ answer: answer(), status: loaded.status }));
`;

function load(file: string, cacheDir: string | undefined, key = 'run'): { answer: string; status: string } {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', CHILD, JSON.stringify([file, cacheDir ?? null, key])], { encoding: 'utf8' });
  return JSON.parse(out) as { answer: string; status: string };
}

describe('the CLI bundle loader with V8 code cache', () => {
  it('writes a cache after the first start and uses it on the next', () => {
    const file = join(dir, 'used.cjs');
    const cacheDir = join(dir, 'cache-used');
    writeFileSync(file, moduleText('first'));
    expect(load(file, cacheDir)).toEqual({ answer: 'first', status: 'none' });
    expect(existsSync(cacheFileOf(cacheDir, readFileSync(file, 'utf8'), 'run'))).toBe(true);
    expect(load(file, cacheDir)).toEqual({ answer: 'first', status: 'used' });
  });

  it('never runs the code of an earlier text, even one of the same length', () => {
    const file = join(dir, 'stale.cjs');
    const cacheDir = join(dir, 'cache-stale');
    writeFileSync(file, moduleText('old!'));
    expect(load(file, cacheDir).answer).toBe('old!');
    expect(load(file, cacheDir).status).toBe('used');
    // Same length, other code: V8 would take the old cache for it (it checks the length only).
    const edited = moduleText('new!');
    expect(edited.length).toBe(moduleText('old!').length);
    writeFileSync(file, edited);
    expect(load(file, cacheDir)).toEqual({ answer: 'new!', status: 'none' });
    expect(load(file, cacheDir)).toEqual({ answer: 'new!', status: 'used' });
    // Writing the new text's cache removed the old text's: the folder does not grow with builds.
    expect(readdirSync(cacheDir)).toEqual([cacheFileOf(cacheDir, edited, 'run').slice(cacheDir.length + 1)]);
  });

  it('loads a text that is not all ASCII as UTF-8, cached under the same name as its text', () => {
    const file = join(dir, 'utf8.cjs');
    const cacheDir = join(dir, 'cache-utf8');
    // The bundle is ASCII (read as Latin-1); any other file must still read as UTF-8.
    const text = moduleText('café — naïve…');
    writeFileSync(file, text);
    expect(load(file, cacheDir)).toEqual({ answer: 'café — naïve…', status: 'none' });
    expect(readdirSync(cacheDir)).toEqual([cacheFileOf(cacheDir, text, 'run').slice(cacheDir.length + 1)]);
    expect(cacheFileOf(cacheDir, readFileSync(file), 'run')).toBe(cacheFileOf(cacheDir, text, 'run'));
    expect(load(file, cacheDir)).toEqual({ answer: 'café — naïve…', status: 'used' });
  });

  it('keeps one cache per command name, and a name that is no command name shares "other"', () => {
    const file = join(dir, 'keys.cjs');
    const cacheDir = join(dir, 'cache-keys');
    writeFileSync(file, moduleText('k'));
    load(file, cacheDir, 'resume');
    load(file, cacheDir, 'validate');
    load(file, cacheDir, '../../etc/passwd');
    expect(readdirSync(cacheDir).map((n) => n.replace(/^weft-[0-9a-f]{64}-[^-]+-/, '')).sort()).toEqual(['other.v8cache', 'resume.v8cache', 'validate.v8cache']);
  });

  it('starts normally when the cache folder is a file (cannot be made)', () => {
    const file = join(dir, 'not-a-folder.cjs');
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, 'not a folder');
    writeFileSync(file, moduleText('still runs'));
    const cacheDir = join(blocker, 'cache');
    expect(load(file, cacheDir)).toEqual({ answer: 'still runs', status: 'none' });
    expect(load(file, cacheDir)).toEqual({ answer: 'still runs', status: 'none' });
    expect(readFileSync(blocker, 'utf8')).toBe('not a folder');
  });

  // As root (which writes anywhere) the CLI test drops to another user for this case.
  it.runIf(process.platform !== 'win32' && process.getuid?.() !== 0)('starts normally when the cache folder is not writable', () => {
    const file = join(dir, 'read-only.cjs');
    const cacheDir = join(dir, 'cache-read-only');
    mkdirSync(cacheDir);
    chmodSync(cacheDir, 0o500);
    writeFileSync(file, moduleText('read-only'));
    expect(load(file, cacheDir)).toEqual({ answer: 'read-only', status: 'none' });
    expect(readdirSync(cacheDir)).toEqual([]);
    chmodSync(cacheDir, 0o700);
  });

  it('compiles afresh, and rewrites the cache, when the cache file is damaged', () => {
    const file = join(dir, 'damaged.cjs');
    const cacheDir = join(dir, 'cache-damaged');
    writeFileSync(file, moduleText('damaged'));
    load(file, cacheDir);
    const cacheFile = cacheFileOf(cacheDir, readFileSync(file, 'utf8'), 'run');
    const good = readFileSync(cacheFile);
    for (const damage of [Buffer.from('not a V8 code cache'), good.subarray(0, good.length >> 1), Buffer.alloc(0)]) {
      writeFileSync(cacheFile, damage);
      expect(load(file, cacheDir)).toEqual({ answer: 'damaged', status: 'rejected' });
      expect(load(file, cacheDir).status).toBe('used');
    }
  });

  it('is off without a cache folder', () => {
    const file = join(dir, 'off.cjs');
    writeFileSync(file, moduleText('off'));
    expect(load(file, undefined)).toEqual({ answer: 'off', status: 'off' });
  });
});
