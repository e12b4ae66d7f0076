// npm start's decision (build/desktop-runtime.mjs) on fake Electron installs in temp folders, and
// the time box of the download, with real child processes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appEntryProblem, browserLine, desktopRuntimePlan, fetchElectron } from '../../build/desktop-runtime.mjs';
import { waitUntil } from '../wait-until.ts';
import { stallingMirror } from './stalling-mirror.ts';

const FETCH_SCRIPT = fileURLToPath(new URL('../../build/fetch-electron.mjs', import.meta.url));

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A node_modules/electron as npm leaves it (no runtime), optionally after its first download. */
function electronInstall({ fetched }: { fetched: boolean }): string {
  const dir = mkdtempSync(join(tmpdir(), 'weft-electron-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'package.json'), '{"name":"electron","version":"45.5.0"}');
  if (fetched) {
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'electron'), '');
    writeFileSync(join(dir, 'path.txt'), 'electron');
  }
  return dir;
}

const display = { DISPLAY: ':0' };

it.each([
  { why: 'the switch', env: { WEFT_NO_ELECTRON: '1', ...display }, platform: 'linux', fetched: true, want: { kind: 'browser', reason: 'WEFT_NO_ELECTRON=1 is set' } },
  { why: 'no X11 or Wayland display', env: {}, platform: 'linux', fetched: true, want: { kind: 'browser', reason: 'no display: neither DISPLAY nor WAYLAND_DISPLAY is set' } },
  { why: 'an empty DISPLAY', env: { DISPLAY: '' }, platform: 'linux', fetched: false, want: { kind: 'browser' } },
  { why: 'Wayland only', env: { WAYLAND_DISPLAY: 'wayland-0' }, platform: 'linux', fetched: false, want: { kind: 'fetch' } },
  { why: 'macOS needs no DISPLAY', env: {}, platform: 'darwin', fetched: false, want: { kind: 'fetch' } },
  { why: 'the runtime was fetched before', env: display, platform: 'linux', fetched: true, want: { kind: 'launch' } },
  { why: 'first launch', env: display, platform: 'linux', fetched: false, want: { kind: 'fetch' } },
] as const)('$why -> $want.kind', ({ env, platform, fetched, want }) => {
  const electronDir = electronInstall({ fetched });
  const plan = desktopRuntimePlan({ env, platform, electronDir });
  expect(plan).toMatchObject(want);
  if (plan.kind === 'launch') expect(plan.binary).toBe(join(electronDir, 'dist', 'electron'));
});

it('uses ELECTRON_OVERRIDE_DIST_PATH as index.js does, and an electron package that is not there says so', () => {
  const override = mkdtempSync(join(tmpdir(), 'weft-electron-dist-'));
  dirs.push(override);
  writeFileSync(join(override, 'electron'), '');
  expect(desktopRuntimePlan({ env: { ...display, ELECTRON_OVERRIDE_DIST_PATH: override }, platform: 'linux', electronDir: electronInstall({ fetched: false }) })).toEqual({
    kind: 'launch',
    binary: join(override, 'electron'),
  });
  expect(desktopRuntimePlan({ env: display, platform: 'linux', electronDir: join(override, 'nothing') })).toEqual({
    kind: 'browser',
    reason: 'the electron package is not installed (run npm install)',
  });
});

it('names what is missing of the desktop shell', () => {
  const root = mkdtempSync(join(tmpdir(), 'weft-root-'));
  dirs.push(root);
  writeFileSync(join(root, 'package.json'), '{"name":"x"}');
  expect(appEntryProblem(root)).toBe('the desktop shell is not part of this checkout (package.json names no "main")');
  writeFileSync(join(root, 'package.json'), '{"name":"x","main":"dist/electron/main.cjs"}');
  expect(appEntryProblem(root)).toBe('the desktop shell is not built (dist/electron/main.cjs is missing)');
  mkdirSync(join(root, 'dist/electron'), { recursive: true });
  writeFileSync(join(root, 'dist/electron/main.cjs'), '');
  expect(appEntryProblem(root)).toBeUndefined();
});

// The child's lines, as build/fetch-electron.mjs prints them (stand-ins below speak the same).
const STANDIN_WAITS = 'setInterval(() => {}, 1 << 30);';

it('gives up a download that makes no progress after its request went out, and kills it', async () => {
  let pid: number | undefined;
  // The request is out, then nothing: the idle time box, whenever it fires, is the right answer.
  const result = await fetchElectron({ env: process.env, idleTimeoutMs: 400, command: [process.execPath, '-e', `console.log('request'); ${STANDIN_WAITS}`], onChild: (c) => (pid = c.pid) });
  expect(result).toEqual({ ok: false, reason: 'the download made no progress for 0.4 s' });
  // Settled on 'close': the attempt is gone.
  expect(() => process.kill(pid ?? 0, 0)).toThrow();
});

it('gives up a download that never gets its request out, and kills it', async () => {
  let pid: number | undefined;
  const result = await fetchElectron({ env: process.env, idleTimeoutMs: 400, startTimeoutMs: 300, command: [process.execPath, '-e', STANDIN_WAITS], onChild: (c) => (pid = c.pid) });
  expect(result).toEqual({ ok: false, reason: 'the download did not start within 0.3 s' });
  expect(() => process.kill(pid ?? 0, 0)).toThrow();
});

describe('the idle clock, in virtual time', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  // The stand-in prints its next line on each SIGUSR2; after each line the test moves the (fake)
  // clock 300 ms, less than the 400 ms box, then asks for the next: time passes, progress keeps
  // the box open, and no real timer races the child.
  const stepped = (lines: string[], end: string) =>
    `const lines = ${JSON.stringify(lines)}; process.on('SIGUSR2', () => { const l = lines.shift(); if (l === undefined) { ${end} } else console.log(l); }); console.log('request'); ${STANDIN_WAITS}`;

  function driven(lines: string[], end: string, onLine: (line: string) => void = () => {}) {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let progressed = 0;
    const said: string[] = [];
    const result = fetchElectron({
      env: process.env,
      idleTimeoutMs: 400,
      command: [process.execPath, '-e', stepped(lines, end)],
      onFirstProgress: () => (progressed += 1),
      onChild: (child) =>
        child.stdout?.on('data', (d: Buffer) => {
          const line = d.toString().trim();
          said.push(line);
          // Once fetchElectron has read the line too (its listener comes after this one).
          queueMicrotask(() => {
            vi.advanceTimersByTime(300);
            onLine(line);
            child.kill('SIGUSR2');
          });
        }),
    });
    return { result, progressed: () => progressed, said };
  }

  it('keeps a download that makes progress for longer than the box, and reports a failure in its last line without a stack', async () => {
    const d = driven(['progress 0', 'progress 1', 'progress 2', 'progress 3'], 'console.error("Error: boom\\n    at somewhere (x.js:1:1)\\nchecksum mismatch for electron.zip"); process.exit(1);');
    expect(await d.result).toEqual({ ok: false, reason: 'checksum mismatch for electron.zip' });
    expect(d.said).toEqual(['request', 'progress 0', 'progress 1', 'progress 2', 'progress 3']);
    expect(d.progressed()).toBe(1);
  });

  it('stops the clock once the zip is downloaded: unpacking it is not a stall', async () => {
    // After "downloaded" the fake clock moves far past the box before the stand-in ends well.
    const d = driven(['progress 100', 'downloaded'], 'process.exit(0);', (line) => {
      if (line === 'downloaded') vi.advanceTimersByTime(60_000);
    });
    expect(await d.result).toEqual({ ok: true });
  });
});

it('starts the idle clock when the request goes out, so a machine too busy to start the download quickly still reaches the mirror', async () => {
  const mirror = await stallingMirror();
  const cache = mkdtempSync(join(tmpdir(), 'weft-electron-cache-'));
  dirs.push(cache);
  try {
    // A slow machine, made deterministic: the download's process is blocked for 1.5 s before it
    // runs a line of its own, three times the idle box.
    const slowStart = join(cache, 'slow-start.cjs');
    writeFileSync(slowStart, 'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500);\n');
    const result = await fetchElectron({
      env: { ...process.env, ELECTRON_MIRROR: mirror.url, electron_config_cache: cache },
      idleTimeoutMs: 500,
      command: [process.execPath, '--require', slowStart, FETCH_SCRIPT],
    });
    expect(result).toEqual({ ok: false, reason: 'the download made no progress for 0.5 s' });
    // The request was written before the clock started: the mirror sees it, however late.
    await waitUntil(() => mirror.requests().length > 0, 'the request to reach the mirror');
    expect(mirror.requests()).toEqual([expect.stringMatching(/electron-v[\d.]+-linux-\w+\.zip$/)]);
  } finally {
    await mirror.close();
  }
});

it('the real fetch script, against a mirror that refuses, fails in one line', async () => {
  const cache = mkdtempSync(join(tmpdir(), 'weft-electron-cache-'));
  dirs.push(cache);
  const closed = createServer();
  const port = await new Promise<number>((resolve) => closed.listen(0, '127.0.0.1', () => resolve((closed.address() as AddressInfo).port)));
  await new Promise((resolve) => closed.close(resolve));
  const result = await fetchElectron({ env: { ...process.env, ELECTRON_MIRROR: `http://127.0.0.1:${port}/`, electron_config_cache: cache }, idleTimeoutMs: 10_000 });
  expect(result.ok).toBe(false);
  expect(result.ok === false && result.reason).toMatch(/^fetch failed \(.*ECONNREFUSED/);
});

it('words the line', () => {
  expect(browserLine('fetch failed (getaddrinfo ENOTFOUND github.com)', { fetched: true })).toBe(
    'Weft Studio: no Electron runtime here (could not download it: fetch failed (getaddrinfo ENOTFOUND github.com)); serving the app in your browser instead.',
  );
});
