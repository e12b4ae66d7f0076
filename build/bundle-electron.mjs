#!/usr/bin/env node
// Bundles the desktop shell for Electron: dist/electron/main.cjs (the main process) and
// dist/electron/preload.cjs (the preload, when electron/preload/preload.ts exists). Both are
// CommonJS, as Electron loads a sandboxed preload (which cannot be an ES module) and a main
// script from an asar most simply that way. Everything of ours and zod is bundled in; only
// 'electron' (provided by the runtime) and Node's built-ins stay outside, so the packaged app
// needs no node_modules for its main process.
//
//   node build/bundle-electron.mjs [--outdir DIR]
import { build } from 'esbuild';
import { existsSync, mkdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const flag = process.argv.indexOf('--outdir');
const outdir = flag >= 0 && process.argv[flag + 1] !== undefined ? process.argv[flag + 1] : `${root}dist/electron`;
mkdirSync(outdir, { recursive: true });

const common = {
  absWorkingDir: root,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node22',
  external: ['electron', ...builtinModules, ...builtinModules.map((m) => `node:${m}`)],
  sourcemap: 'linked',
  logLevel: 'warning',
};

const started = performance.now();
const built = ['main.cjs'];
await build({ ...common, entryPoints: { main: 'electron/main/main.ts' }, outdir, outExtension: { '.js': '.cjs' } });
if (existsSync(`${root}electron/preload/preload.ts`)) {
  await build({ ...common, entryPoints: { preload: 'electron/preload/preload.ts' }, outdir, outExtension: { '.js': '.cjs' } });
  built.push('preload.cjs');
}
process.stdout.write(`weft: built ${built.join(', ')} in ${outdir} in ${Math.round(performance.now() - started)} ms\n`);
