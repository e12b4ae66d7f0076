#!/usr/bin/env node
// Entry point of the `weft` command. It runs the bundle in dist/cli/ (plain JavaScript, built by
// `npm run build` and by `npm install`'s prepare step) while that bundle is fresh: built from the
// sources as they are now. In a checkout whose sources changed since the build it falls back to
// running the TypeScript through tsx (registered with the project's own tsconfig, not whatever
// tsconfig.json sits in the user's current folder), so an edited tree never runs stale code.
// WEFT_FROM_SOURCE=1 forces the tsx path.
//
// A command runs from the bundle's one-file CommonJS build (dist/cli/weft.cjs) with V8's code cache
// (./code-cache.js), kept in dist/cli/code-cache/ or in WEFT_CODE_CACHE_DIR (empty: no cache).
//
// `weft --version` is answered here, from package.json, before anything else loads (issue 20,
// step 9: within 1.3× Node's own start): the version is package.json's whichever way the CLI
// would run (the bundle has it compiled in from that file, and a package.json newer than the
// bundle makes it stale), so neither the freshness walk over the sources nor the bundle is needed.
// That is why the other modules are imported dynamically, after this check.
import { readFileSync } from 'node:fs';

// `weft validate x --json | head -1` closes stdout early; that is not an error worth a stack.
// The rest of the output is dropped and the command still finishes with its own exit code.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
  });
}

/** The version in package.json, as engine/cli/read-version.ts reads it ("unknown" if it has none). */
function packageVersion() {
  const parsed = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const version = parsed !== null && typeof parsed === 'object' && 'version' in parsed ? parsed.version : undefined;
  return typeof version === 'string' ? version : 'unknown';
}

/** @param {readonly string[]} argv @returns {Promise<{main: Function, save?: () => void}>} */
async function loadMain(argv) {
  const [{ existsSync }, { fileURLToPath, pathToFileURL }, { freshBundlePath }] = await Promise.all([import('node:fs'), import('node:url'), import('./source-stamp.js')]);
  const root = fileURLToPath(new URL('..', import.meta.url));
  const bundle = process.env.WEFT_FROM_SOURCE === '1' ? undefined : freshBundlePath(root);
  // A failure loading the bundle is a broken build, not a user error: let Node print it in full.
  if (bundle !== undefined) {
    const oneFile = bundle.replace(/\.js$/, '.cjs');
    if (existsSync(oneFile)) {
      const { loadWithCodeCache } = await import('./code-cache.js');
      const setting = process.env.WEFT_CODE_CACHE_DIR;
      const cacheDir = setting === undefined ? fileURLToPath(new URL('../dist/cli/code-cache/', import.meta.url)) : setting === '' ? undefined : setting;
      const loaded = loadWithCodeCache(oneFile, { cacheDir, key: argv[0] ?? 'usage' });
      return { main: /** @type {Function} */ (loaded.exports.main), save: loaded.save };
    }
    return { main: (await import(pathToFileURL(bundle).href)).main };
  }
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch (error) {
    process.stderr.write(
      `weft: cannot load tsx, which runs weft's TypeScript (${error instanceof Error ? error.message : String(error)}).\n` +
        `Run "npm install" in ${root} and try again.\n`,
    );
    process.exit(2);
  }
  register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
  return { main: (await import('../engine/cli/main.ts')).main };
}

const argv = process.argv.slice(2);
if (argv[0] === '--version') {
  // What main() prints for it, words after it ignored as there.
  process.stdout.write(`${packageVersion()}\n`);
} else {
  const { main, save } = await loadMain(argv);
  process.exitCode = await main(argv, {
    stdout: process.stdout,
    stderr: process.stderr,
    cwd: process.cwd(),
  });
  // After the command, so the cache holds the functions it compiled; a start of the same command
  // with the same bundle then compiles none of them.
  save?.();
}
