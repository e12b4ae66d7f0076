// npm start's decision (build/desktop-runtime.mjs) on fake Electron installs in temp folders, and
// the time box of the download, with real child processes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { appEntryProblem, browserLine, desktopRuntimePlan, fetchElectron } from '../../build/desktop-runtime.mjs';

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

it('gives up a download that makes no progress, and kills it', async () => {
  let pid: number | undefined;
  const t0 = Date.now();
  const result = await fetchElectron({ env: process.env, idleTimeoutMs: 400, command: [process.execPath, '-e', 'setInterval(() => {}, 1000)'], onChild: (c) => (pid = c.pid) });
  expect(result).toEqual({ ok: false, reason: 'the download made no progress for 0.4 s' });
  expect(Date.now() - t0).toBeLessThan(10_000);
  expect(() => process.kill(pid ?? 0, 0)).toThrow();
});

it('keeps a download that makes progress, and reports a failure in its last line without a stack', async () => {
  const script = 'let n = 0; const t = setInterval(() => { console.log("progress " + n++); if (n === 5) { clearInterval(t); console.error("Error: boom\\n    at somewhere (x.js:1:1)\\nchecksum mismatch for electron.zip"); process.exit(1); } }, 150)';
  let progressed = 0;
  const result = await fetchElectron({ env: process.env, idleTimeoutMs: 400, command: [process.execPath, '-e', script], onFirstProgress: () => (progressed += 1) });
  expect(result).toEqual({ ok: false, reason: 'checksum mismatch for electron.zip' });
  expect(progressed).toBe(1);
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
