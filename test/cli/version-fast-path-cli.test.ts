// `weft --version` answers from package.json alone (issue 20, step 9: within 1.3× Node's own
// start): it walks no sources for the bundle's freshness, loads no bundle and no tsx. A copy of
// bin/ beside a package.json, with neither dist/ nor the sources nor node_modules, shows it: any
// load would fail there (the bundle is missing, tsx cannot be found). Every other argument still
// needs the real CLI, so the same copy refuses `weft validate` as it always has.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WAIT_BOUND_MS } from '../wait-until.ts';
import { REPO_ROOT, runWeft } from './run-weft.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-version-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** `node <dir>/bin/weft.js ARGS` in a bare copy: bin/ and the given package.json only. */
function bareWeft(packageJson: string, args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const root = mkdtempSync(join(dir, 'copy-'));
  cpSync(join(REPO_ROOT, 'bin'), join(root, 'bin'), { recursive: true });
  writeFileSync(join(root, 'package.json'), packageJson);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [join(root, 'bin/weft.js'), ...args], { cwd: root, timeout: WAIT_BOUND_MS, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error !== null && typeof error.code !== 'number') reject(error);
      else resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr });
    });
  });
}

describe('weft --version', () => {
  it('prints the version of package.json without the bundle, the sources or tsx', async () => {
    const bare = await bareWeft(JSON.stringify({ name: 'weft-studio', version: '9.8.7', type: 'module' }), ['--version']);
    expect(bare).toEqual({ code: 0, stdout: '9.8.7\n', stderr: '' });
  });

  it('ignores what follows it, as before', async () => {
    const bare = await bareWeft(JSON.stringify({ name: 'weft-studio', version: '9.8.7', type: 'module' }), ['--version', 'extra', '--json']);
    expect(bare).toEqual({ code: 0, stdout: '9.8.7\n', stderr: '' });
  });

  it('says "unknown" for a package.json without a version, as readVersion does', async () => {
    const bare = await bareWeft(JSON.stringify({ name: 'weft-studio', type: 'module' }), ['--version']);
    expect(bare).toEqual({ code: 0, stdout: 'unknown\n', stderr: '' });
  });

  it('leaves every other command to the real CLI (which a bare copy cannot load)', async () => {
    const bare = await bareWeft(JSON.stringify({ name: 'weft-studio', version: '9.8.7', type: 'module' }), ['validate', 'x.weft.json']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('weft: cannot load tsx');
  });

  it('answers the same from the checkout', async () => {
    expect(await runWeft(['--version'])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });
});
