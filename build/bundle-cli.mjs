#!/usr/bin/env node
// Bundles the engine and the `weft` CLI into dist/cli/ as plain JavaScript, so bin/weft.js starts
// without compiling TypeScript (tsx costs 0.4-0.8 s a call). The packages every command loads
// (zod, ajv, jsonata: BUNDLED) are bundled in too: from node_modules they are some 400 files (zod
// alone is over 200 ES modules) whose resolving and loading cost a command more CPU than its own
// work. Every other dependency stays external and loads from node_modules as under tsx (native
// addons, servers with optional peers). Outputs are flat in dist/cli/ (entries and shared chunks
// side by side), because the script executor finds its runner, and the server its store
// workers, next to the module that starts them.
//
// zod's namespace object `z` re-exports its 64 locales (`z.locales`), so a bundle that uses `z.`
// keeps all of them: two fifths of zod's source, parsed and compiled by every command that loads
// zod. weft uses only English, zod's default (which zod imports on its own, from locales/en.js):
// the plugin below makes the locales index export that one alone (`z.locales.en`).
//
// dist/cli/build-stamp.json records the newest source mtime and the source count; bin/weft.js uses
// the bundle only while no source is newer and none was added or removed, else it falls back to
// tsx, so an edited checkout never runs stale code.
import { build, transform } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceStamp } from '../bin/source-stamp.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = `${root}dist/cli`;
const manifest = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
const version = manifest.version;
const BUNDLED = ['zod', 'ajv', 'jsonata'];
// A package named here is external with its subpaths; what the bundled ones import is bundled.
const external = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).filter((name) => !BUNDLED.includes(name));

/** @type {import('esbuild').Plugin} */
const englishOnlyZod = {
  name: 'zod-english-only',
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: 'export { default as en } from "./en.js";\n',
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};

const stamp = sourceStamp(root);
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
const started = performance.now();
await build({
  absWorkingDir: root,
  entryPoints: {
    weft: 'engine/cli/main.ts',
    'script-runner': 'engine/executors/script-runner.ts',
    'script-runner-hooks': 'engine/executors/script-runner-hooks.ts',
    // The store workers, which engine/service/store-worker.ts starts beside the bundle by these
    // names: the one that compares runs off the engine's thread (compare-worker.ts) and the one
    // that answers the server's heavy reads (read-worker.ts).
    'compare-worker-entry': 'engine/service/compare-worker-entry.ts',
    'read-worker-entry': 'engine/service/read-worker-entry.ts',
    // The thread of a synchronous PostgreSQL connection (engine/store/pg/pg-sync.ts starts it by this name).
    'pg-sync-entry': 'engine/store/pg/pg-sync-entry.ts',
  },
  outdir: dist,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  // Bundled CommonJS (ajv) may require() Node's built-ins; an ES module has no require of its own.
  banner: { js: "import { createRequire as __weftCreateRequire } from 'node:module'; const require = __weftCreateRequire(import.meta.url);" },
  chunkNames: '[name]-[hash]',
  sourcemap: 'linked',
  define: { WEFT_BUILD_VERSION: JSON.stringify(version) },
  plugins: [englishOnlyZod],
  logLevel: 'warning',
});
// The same CLI as one CommonJS file, which bin/weft.js runs for every command with V8's code cache
// (bin/code-cache.js): Node 20 caches no compile of ES modules, and a command's ~60 chunks cost
// it more to find, read, compile and link than one file with a cache costs to read. The split
// bundle above stays for what starts beside it (the script runner, the store workers).
// `weft --version` loads neither: bin/weft.js answers it from package.json.
// import.meta.url, which finds the runner, the worker and the app beside the bundle, is this
// file's URL.
const oneFile = await build({
  absWorkingDir: root,
  entryPoints: { weft: 'engine/cli/main.ts' },
  outdir: dist,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external,
  banner: { js: "const __weftModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  sourcemap: 'linked',
  define: { WEFT_BUILD_VERSION: JSON.stringify(version), 'import.meta.url': '__weftModuleUrl' },
  plugins: [englishOnlyZod],
  logLevel: 'warning',
  metafile: true,
});
// esbuild turns import() of bundled files and packages into require(), but leaves it for Node's
// built-ins; bin/code-cache.js runs the file in a vm.Script, where import() has no loader and
// throws ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING. Import built-ins statically instead.
for (const [name, output] of Object.entries(oneFile.metafile.outputs)) {
  const dynamic = output.imports.filter((i) => i.kind === 'dynamic-import' && i.external === true).map((i) => i.path);
  if (dynamic.length > 0) throw new Error(`${name} keeps import() of ${dynamic.join(', ')}: import them statically in the sources`);
}
await asciiOnly(`${dist}/weft.cjs`);
writeFileSync(`${dist}/build-stamp.json`, `${JSON.stringify(stamp)}\n`);
process.stdout.write(`weft: built dist/cli/ (${stamp.files} sources) in ${Math.round(performance.now() - started)} ms\n`);

/**
 * Leaves the one-file build all ASCII, which bin/code-cache.js reads at every start as a one-byte
 * string (a plain copy) instead of decoding UTF-8 into a two-byte one. esbuild already escapes
 * what it prints of strings and names (its ASCII charset); what is left are characters in the
 * comments it keeps (a dash, an ellipsis), written here as \uXXXX escapes. The escaped text must
 * compile to exactly the code of the original (checked: both printed by esbuild without comments
 * and whitespace), so an escape in code, where it could change a value, fails the build.
 * @param {string} file
 */
async function asciiOnly(file) {
  const text = readFileSync(file, 'utf8');
  const escaped = text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (escaped === text) return;
  const code = async (t) => (await transform(t, { minifyWhitespace: true, charset: 'utf8', legalComments: 'none', format: 'cjs', platform: 'node', loader: 'js' })).code;
  if ((await code(escaped)) !== (await code(text))) throw new Error(`${file}: escaping its non-ASCII characters would change its code (they are not all in comments)`);
  writeFileSync(file, escaped);
}
