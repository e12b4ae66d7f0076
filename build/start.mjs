#!/usr/bin/env node
// `npm start`: builds what is stale (the bundled CLI in dist/cli, the app in dist/app), then runs
// `weft serve --open` on the current folder, so the app opens in the browser. (The desktop shell
// will open its own window where an Electron runtime exists.)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshBundlePath } from '../bin/source-stamp.js';

const root = fileURLToPath(new URL('..', import.meta.url));

const cliStale = () => freshBundlePath(root) === undefined;

function newestIn(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

function appStale() {
  const index = join(root, 'dist/app/index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return Math.max(newestIn(join(root, 'renderer')), newestIn(join(root, 'shared')), statSync(join(root, 'vite.config.ts')).mtimeMs) > built;
}

function run(command, args) {
  const r = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (cliStale()) run(process.execPath, [join(root, 'build/bundle-cli.mjs')]);
if (appStale()) run(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn']);

// Started in the Weft Studio folder itself (a fresh clone), the app opens the examples: the
// checkout's own tree holds test fixtures, not a workspace. Elsewhere, the current folder.
const cwd = process.env.INIT_CWD ?? process.cwd();
const args = process.argv.slice(2);
const workspace = args.includes('--workspace') ? [] : ['--workspace', cwd === root.replace(/\/$/, '') ? join(root, 'examples') : cwd];
const child = spawn(process.execPath, [join(root, 'bin/weft.js'), 'serve', '--open', ...workspace, ...args], { stdio: 'inherit', cwd });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 1));
