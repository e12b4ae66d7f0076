// `npm start`'s decision: open the desktop app in Electron, or serve the app to the browser.
//
// Electron's npm package holds no runtime: node_modules/electron/index.js looks for the binary
// named by path.txt in node_modules/electron/dist/ (or under ELECTRON_OVERRIDE_DIST_PATH), and
// when it is missing runs install.js, which downloads it (@electron/get, from GitHub or
// ELECTRON_MIRROR, cached under ~/.cache/electron) and unzips it there. We decide up front what
// can be decided without the network, and otherwise attempt that same download, time-boxed, in
// a child process (fetch-electron.mjs) so that it can be killed and never prints a stack trace.
// Plain JavaScript, like bin/, so `npm start` compiles nothing before it decides.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** How long the download may go without progress before it is given up. */
export const FETCH_IDLE_TIMEOUT_MS = 15_000;

/**
 * What can be known without the network.
 * @returns {{ kind: 'browser', reason: string } | { kind: 'launch', binary: string } | { kind: 'fetch' }}
 */
export function desktopRuntimePlan({ env, platform, electronDir }) {
  if (env.WEFT_NO_ELECTRON === '1') return { kind: 'browser', reason: 'WEFT_NO_ELECTRON=1 is set' };
  const x11 = platform === 'linux' || platform === 'freebsd' || platform === 'openbsd';
  if (x11 && !env.DISPLAY && !env.WAYLAND_DISPLAY) return { kind: 'browser', reason: 'no display: neither DISPLAY nor WAYLAND_DISPLAY is set' };
  if (!existsSync(join(electronDir, 'package.json'))) return { kind: 'browser', reason: 'the electron package is not installed (run npm install)' };
  const binary = electronBinary({ env, electronDir });
  return binary !== undefined && existsSync(binary) ? { kind: 'launch', binary } : { kind: 'fetch' };
}

/** Where Electron's index.js would find the runtime; undefined before its first download. */
export function electronBinary({ env, electronDir }) {
  let name;
  try {
    name = readFileSync(join(electronDir, 'path.txt'), 'utf8');
  } catch {
    name = undefined;
  }
  if (env.ELECTRON_OVERRIDE_DIST_PATH) return join(env.ELECTRON_OVERRIDE_DIST_PATH, name || 'electron');
  return name === undefined ? undefined : join(electronDir, 'dist', name);
}

/**
 * Why the desktop shell cannot be launched from this checkout, or undefined when it can: `electron
 * ROOT` runs package.json's "main", which build/bundle-electron.mjs writes.
 */
export function appEntryProblem(root) {
  let main;
  try {
    main = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).main;
  } catch (error) {
    return `package.json could not be read (${error instanceof Error ? error.message : String(error)})`;
  }
  if (typeof main !== 'string') return 'the desktop shell is not part of this checkout (package.json names no "main")';
  if (!existsSync(join(root, main))) return `the desktop shell is not built (${main} is missing)`;
  return undefined;
}

/**
 * How long the download's process may take to get its request out (start Node, load
 * @electron/get, resolve the host, connect). Local work and the network stack's own timeouts
 * bound this; the box only keeps a process that never gets going from hanging `npm start`.
 */
export const FETCH_START_TIMEOUT_MS = 60_000;

/**
 * Attempts Electron's first-launch download. Resolves { ok: true } once the runtime is in place,
 * or { ok: false, reason } (one line) when it failed, never got its request out within
 * startTimeoutMs, or made no progress for idleTimeoutMs after it; the attempt is then killed.
 * Never rejects.
 *
 * The child (fetch-electron.mjs) says, one line each: `request` when the request has been
 * written to the server, `progress N` as bytes arrive, `downloaded` when the zip is in the cache.
 * The idle clock runs from `request` (or the first line) to `downloaded` and restarts at every
 * line: it measures the server's silence, not how fast this machine starts a process (a busy
 * machine once gave up before the request was sent), nor how long unpacking takes.
 * @param {{ env: NodeJS.ProcessEnv, idleTimeoutMs?: number, startTimeoutMs?: number, command?: string[], onChild?: (child: import('node:child_process').ChildProcess) => void, onFirstProgress?: () => void }} o
 */
export function fetchElectron({ env, idleTimeoutMs = FETCH_IDLE_TIMEOUT_MS, startTimeoutMs = FETCH_START_TIMEOUT_MS, command = [process.execPath, join(here, 'fetch-electron.mjs')], onChild = () => {}, onFirstProgress = () => {} }) {
  return new Promise((resolve) => {
    let stderr = '';
    let settled = false;
    /** Why the attempt was killed, when it was. */
    let gaveUp;
    let timer;
    const finish = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const box = (ms, reason) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        gaveUp = reason;
        child.kill('SIGKILL');
      }, ms);
    };
    const [file, ...args] = command;
    const child = spawn(file, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    onChild(child);
    box(startTimeoutMs, `the download did not start within ${startTimeoutMs / 1000} s`);
    let progressed = false;
    let downloaded = false;
    let partial = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (downloaded) continue;
        if (line === 'downloaded') {
          downloaded = true;
          clearTimeout(timer);
          continue;
        }
        if (line.startsWith('progress ') && !progressed) {
          progressed = true;
          onFirstProgress();
        }
        box(idleTimeoutMs, `the download made no progress for ${idleTimeoutMs / 1000} s`);
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', (error) => finish({ ok: false, reason: `the download could not be started (${error.message})` }));
    // Settled on 'close', so the attempt is gone (and its output read) when the answer comes.
    child.on('close', (code, signal) => {
      if (gaveUp !== undefined) return finish({ ok: false, reason: gaveUp });
      if (code === 0) return finish({ ok: true });
      const said = stderr.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('at '));
      finish({ ok: false, reason: said.at(-1) ?? `the download stopped (${signal ?? `exit code ${code}`})` });
    });
  });
}

/** The one line `npm start` prints when it serves to the browser instead. */
export function browserLine(reason, { fetched }) {
  const why = fetched ? `could not download it: ${reason}` : reason;
  return `Weft Studio: no Electron runtime here (${why}); serving the app in your browser instead.`;
}
