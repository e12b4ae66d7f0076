// Runs the one-file CommonJS bundle of the CLI (dist/cli/weft.cjs) with V8's code cache, so a
// command does not parse and compile its ~1.7 MB of JavaScript again at every start. Node 20 has
// no compile cache for ES modules (module.enableCompileCache came in Node 22), but a vm.Script
// takes the cache V8 made of an earlier compile of the same text (`cachedData`) and can make one
// (`createCachedData`) after the command ran, holding the functions that command compiled.
//
// Staleness: V8 checks only the text's length against a cache, so a cache is looked up by the
// SHA-256 of the exact text compiled (and V8's version): another text finds no cache, never a wrong
// one. One cache per command name (what `resume` compiles is not what `validate` does); writing a
// cache removes those of other texts (older builds). The cache is an optimisation only: a folder
// that is missing, unwritable or not a folder, or a damaged or rejected cache, gives a normal
// compile, silently, and a write that fails is dropped.
//
// The file may not call import(): a vm.Script has no module loader for it (build/bundle-cli.mjs
// refuses a build that leaves one).
//
// Reading costs: the file is read as bytes and hashed as bytes (hashing the decoded text would
// encode its 1.7 MB again), and decoded as Latin-1 when it is all ASCII (as the build leaves
// it: build/bundle-cli.mjs), which is a plain copy into a one-byte string, where UTF-8 decoding
// took twice as long and any non-ASCII character made V8 keep the whole text two bytes a character.
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import vm from 'node:vm';

const PREFIX = 'weft-';
const SUFFIX = '.v8cache';

/**
 * The cache file of `source` for one command: `weft-<sha256>-<v8 version>-<key>.v8cache`. The
 * text's hash is that of its UTF-8 bytes, so the file's bytes give the same name.
 * @param {string} dir @param {string | Buffer} source @param {string} key
 */
export function cacheFileOf(dir, source, key) {
  const v8 = process.versions.v8.replace(/[^0-9a-z.]/gi, '.');
  return join(dir, `${PREFIX}${sourceHash(source)}-${v8}-${safeKey(key)}${SUFFIX}`);
}

/** @param {string | Buffer} source */
function sourceHash(source) {
  return createHash('sha256').update(source).digest('hex');
}

/** A command name as a file-name part: letters and dashes, else "other". @param {string} key */
function safeKey(key) {
  return /^[a-z][a-z-]{0,40}$/.test(key) ? key : 'other';
}

/**
 * Loads a CommonJS file as Node would (module, exports, require from its folder, __filename,
 * __dirname), compiled with the code cache in `cacheDir` for `key` when one fits. Call `save()`
 * once the work is done: it writes a cache when there was none (or V8 rejected it).
 * `status` says what happened: 'used', 'none' (no cache yet), 'rejected' (V8 refused it), 'off'.
 * @param {string} file
 * @param {{cacheDir: string | undefined, key: string}} options
 * @returns {{exports: Record<string, unknown>, status: 'used' | 'none' | 'rejected' | 'off', save(): void}}
 */
export function loadWithCodeCache(file, { cacheDir, key }) {
  const bytes = readFileSync(file);
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const cacheFile = cacheDir === undefined ? undefined : cacheFileOf(cacheDir, bytes, key);
  const cachedData = cacheFile === undefined ? undefined : readIfAny(cacheFile);
  // Node's own CommonJS wrapper, so the text compiles as the module body it was built as.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n})`, {
    filename: file,
    ...(cachedData === undefined ? {} : { cachedData }),
  });
  const status = cacheFile === undefined ? 'off' : cachedData === undefined ? 'none' : script.cachedDataRejected === true ? 'rejected' : 'used';
  const module = { exports: {}, filename: file, id: file, loaded: false };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  module.loaded = true;
  return {
    exports: module.exports,
    status,
    save() {
      if (cacheFile === undefined || status === 'used') return;
      writeCache(cacheFile, script.createCachedData());
    },
  };
}

/** @param {string} path */
function readIfAny(path) {
  try {
    return readFileSync(path);
  } catch {
    return undefined; // none yet, or the folder is unreadable: compile without
  }
}

/**
 * Writes the cache whole or not at all (a temporary file renamed over, so a concurrent start
 * reads an old cache or a new one, never half of one) and removes the caches of other texts.
 * @param {string} cacheFile @param {Buffer} data
 */
function writeCache(cacheFile, data) {
  const dir = dirname(cacheFile);
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(temporary, data);
    renameSync(temporary, cacheFile);
    const hash = cacheFile.slice(dir.length + 1 + PREFIX.length).split('-', 1)[0];
    for (const name of readdirSync(dir)) {
      if (name.startsWith(PREFIX) && name.endsWith(SUFFIX) && !name.startsWith(`${PREFIX}${hash}-`)) rmSync(join(dir, name), { force: true });
    }
  } catch {
    // Unwritable or not a folder: the next start compiles without a cache, as this one did.
    try {
      rmSync(temporary, { force: true });
    } catch {
      // nothing was written
    }
  }
}
