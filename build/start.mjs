#!/usr/bin/env node
// `npm start`: builds what is stale (the bundled CLI in dist/cli, the app in dist/app, the desktop
// shell in dist/electron when build/bundle-electron.mjs exists), then opens the desktop app in
// Electron where a runtime exists or can be fetched, and otherwise says why in one line and runs
// `weft serve --open`, so the same app opens in the browser. The decision is in
// desktop-runtime.mjs; docs/desktop-engine.md explains it. WEFT_NO_ELECTRON=1 skips Electron.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshBundlePath } from '../bin/source-stamp.js';
import { appEntryProblem, browserLine, desktopRuntimePlan, electronBinary, fetchElectron, FETCH_IDLE_TIMEOUT_MS } from './desktop-runtime.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
/** An Electron that exits with an error this soon never showed a window: serve instead. */
const EARLY_EXIT_MS = 5_000;

const cliStale = () => freshBundlePath(root) === undefined;

function newestIn(dir) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

function builtBefore(output, sources) {
  if (!existsSync(output)) return true;
  return Math.max(...sources.map((s) => (existsSync(s) && statSync(s).isDirectory() ? newestIn(s) : existsSync(s) ? statSync(s).mtimeMs : 0))) > statSync(output).mtimeMs;
}

const appStale = () => builtBefore(join(root, 'dist/app/index.html'), [join(root, 'renderer'), join(root, 'shared'), join(root, 'vite.config.ts')]);
const shellStale = () => builtBefore(join(root, 'dist/electron/main.cjs'), [join(root, 'electron'), join(root, 'shared'), join(root, 'shared-node'), join(root, 'build/bundle-electron.mjs')]);

function run(command, args) {
  const r = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (cliStale()) run(process.execPath, [join(root, 'build/bundle-cli.mjs')]);
if (appStale()) run(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn']);
if (existsSync(join(root, 'build/bundle-electron.mjs')) && shellStale()) run(process.execPath, [join(root, 'build/bundle-electron.mjs')]);

// Started in the Weft Studio folder itself (a fresh clone), the app opens the examples: the
// checkout's own tree holds test fixtures, not a workspace. Elsewhere, the current folder.
const cwd = process.env.INIT_CWD ?? process.cwd();
const args = process.argv.slice(2);
const workspace = args.includes('--workspace') ? [] : ['--workspace', cwd === root.replace(/\/$/, '') ? join(root, 'examples') : cwd];

// Whatever runs now (the download, Electron, weft serve) hears our signals; before anything
// runs, a signal simply ends us.
let current;
let signalled;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    signalled = signal;
    if (current === undefined || current.exitCode !== null || current.signalCode !== null) process.exit(signal === 'SIGINT' ? 130 : 143);
    current.kill(signal);
  });
}

function serveInBrowser(line) {
  process.stdout.write(`${line}\n`);
  const child = spawn(process.execPath, [join(root, 'bin/weft.js'), 'serve', '--open', ...workspace, ...args], { stdio: 'inherit', cwd });
  current = child;
  child.on('exit', (code) => process.exit(code ?? 1));
}

function launchDesktop(binary) {
  const startedAt = Date.now();
  // --open means "open the app", which the window does; the rest is the shell's to read.
  const child = spawn(binary, [root, ...workspace, ...args.filter((a) => a !== '--open')], { stdio: 'inherit', cwd });
  current = child;
  child.on('error', (error) => serveInBrowser(browserLine(`Electron could not be started: ${error.message}`, { fetched: false })));
  child.on('exit', (code, signal) => {
    if (signalled === undefined && code !== 0 && Date.now() - startedAt < EARLY_EXIT_MS) {
      serveInBrowser(browserLine(`Electron stopped at once (${signal ?? `exit code ${code}`})`, { fetched: false }));
      return;
    }
    process.exit(code ?? 1);
  });
}

async function main() {
  const env = process.env;
  let electronDir;
  try {
    electronDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    electronDir = join(root, 'node_modules/electron');
  }
  let plan = desktopRuntimePlan({ env, platform: process.platform, electronDir });
  let fetched = false;
  if (plan.kind === 'fetch') {
    const idle = Number(env.WEFT_ELECTRON_FETCH_TIMEOUT_MS);
    const result = await fetchElectron({
      env,
      idleTimeoutMs: Number.isFinite(idle) && idle > 0 ? idle : FETCH_IDLE_TIMEOUT_MS,
      onChild: (child) => (current = child),
      // Said only once bytes arrive: an unreachable download says nothing until its one line.
      onFirstProgress: () => process.stdout.write('Weft Studio: fetching the Electron runtime (first start only)...\n'),
    });
    fetched = true;
    const binary = electronBinary({ env, electronDir });
    plan = result.ok && binary !== undefined && existsSync(binary) ? { kind: 'launch', binary } : { kind: 'browser', reason: result.ok ? 'the download left no runtime behind' : result.reason };
  }
  if (plan.kind === 'launch') {
    const shell = appEntryProblem(root);
    if (shell === undefined) return launchDesktop(plan.binary);
    plan = { kind: 'browser', reason: shell };
    fetched = false;
  }
  serveInBrowser(browserLine(plan.reason, { fetched }));
}

main().catch((error) => {
  // No stack trace, whatever failed: the browser still gets the app.
  serveInBrowser(browserLine(`the desktop app could not be prepared: ${error instanceof Error ? error.message : String(error)}`, { fetched: false }));
});
