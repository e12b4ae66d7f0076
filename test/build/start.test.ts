// `npm start` (build/start.mjs) run for real, as a child process, on this machine: no display and
// no way to download Electron. It must say so in one line, serve the app with weft serve, print
// the URL that answers, show no stack trace, and stop with exit 0 on Ctrl-C. --open is honoured
// through a stand-in xdg-open on PATH, so no real browser starts.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { REPO_ROOT, STACK_LINE } from '../cli/run-weft.ts';
import { waitUntil } from '../wait-until.ts';
import { stallingMirror as startStallingMirror, type StallingMirror } from './stalling-mirror.ts';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Started {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
  root: string;
}

function startNpmStart(env: Record<string, string>): Started {
  const root = mkdtempSync(join(tmpdir(), 'weft-start-'));
  const workspace = join(root, 'workspace');
  const bin = join(root, 'bin');
  mkdirSync(workspace);
  mkdirSync(bin);
  // The browser `--open` would start: records the address instead.
  writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\necho "$1" > ${JSON.stringify(join(root, 'opened'))}\n`);
  chmodSync(join(bin, 'xdg-open'), 0o755);
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !['DISPLAY', 'WAYLAND_DISPLAY', 'WEFT_NO_ELECTRON', 'INIT_CWD', 'WEFT_TOKEN', 'WEFT_DB'].includes(k)) base[k] = v;
  const child = spawn(process.execPath, [join(REPO_ROOT, 'build/start.mjs'), '--workspace', workspace, '--db', join(root, 'weft.db')], {
    cwd: workspace,
    env: { ...base, PATH: bin, WEFT_CONFIG_DIR: join(root, 'config'), electron_config_cache: join(root, 'electron-cache'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  cleanups.push(() => {
    try {
      process.kill(-(child.pid ?? 0), 'SIGKILL');
    } catch {
      // Already gone, as it should be.
    }
  });
  return { child, out: () => out, err: () => err, exited, root };
}

const URL_LINE = /^Weft Studio: (http:\/\/127\.0\.0\.1:\d+)\/#token=([A-Za-z0-9_-]+)$/;

/** Waits for the URL, checks it answers, the one explanation line, --open, no stack; then Ctrl-C. */
async function servedInstead(s: Started, explanation: RegExp): Promise<void> {
  await waitUntil(() => s.out().split('\n').some((l) => URL_LINE.test(l)), 'the URL line');
  const said = s.out().split('\n').filter((l) => l.startsWith('Weft Studio:'));
  expect(said).toHaveLength(2);
  expect(said[0]).toMatch(explanation);
  const [, url, token] = URL_LINE.exec(said[1] ?? '') ?? [];
  const health = await fetch(`${url}/api/health`, { headers: { authorization: `Bearer ${token}` } });
  expect(health.status).toBe(200);
  await waitUntil(() => {
    try {
      return readFileSync(join(s.root, 'opened'), 'utf8').trim() === `${url}/#token=${token}`;
    } catch {
      return false;
    }
  }, '--open to open the address');
  s.child.kill('SIGINT');
  expect(await s.exited).toBe(0);
  expect(`${s.out()}${s.err()}`).not.toContain(STACK_LINE);
  expect(s.err()).toContain('weft serve: stopped');
}

it('without a display, says so in one line and serves the app in the browser instead', async () => {
  const s = startNpmStart({});
  await servedInstead(s, /^Weft Studio: no Electron runtime here \(no display: neither DISPLAY nor WAYLAND_DISPLAY is set\); serving the app in your browser instead\.$/);
});

it('with a display but no way to download Electron, attempts the download, says why it failed, and serves instead', async () => {
  const s = startNpmStart({ DISPLAY: ':99', WEFT_ELECTRON_FETCH_TIMEOUT_MS: '10000' });
  // The network's own refusal, or a time box (a resolver that never answers): one clean line.
  await servedInstead(s, /^Weft Studio: no Electron runtime here \(could not download it: (fetch failed \(.+\)|the download made no progress for 10 s|the download did not start within 60 s)\); serving the app in your browser instead\.$/);
});

async function stallingMirror(): Promise<StallingMirror> {
  const mirror = await startStallingMirror();
  cleanups.push(() => mirror.close());
  return mirror;
}

it('gives up a download that hangs after the time box', async () => {
  const mirror = await stallingMirror();
  const s = startNpmStart({ DISPLAY: ':99', ELECTRON_MIRROR: mirror.url, WEFT_ELECTRON_FETCH_TIMEOUT_MS: '1000' });
  await servedInstead(s, /^Weft Studio: no Electron runtime here \(could not download it: the download made no progress for 1 s\); serving the app in your browser instead\.$/);
  // The time box starts once the request is out (build/desktop-runtime.mjs), so the mirror gets
  // it however slowly the machine started the download; it may still be in this process's queue.
  await waitUntil(() => mirror.requests().length > 0, 'the request to reach the mirror');
  expect(mirror.requests()).toEqual([expect.stringMatching(/electron-v[\d.]+-linux-\w+\.zip$/)]);
});

it('WEFT_NO_ELECTRON=1 skips the attempt', async () => {
  const mirror = await stallingMirror();
  const s = startNpmStart({ DISPLAY: ':99', ELECTRON_MIRROR: mirror.url, WEFT_NO_ELECTRON: '1' });
  await servedInstead(s, /^Weft Studio: no Electron runtime here \(WEFT_NO_ELECTRON=1 is set\); serving the app in your browser instead\.$/);
  expect(mirror.requests()).toEqual([]);
});
