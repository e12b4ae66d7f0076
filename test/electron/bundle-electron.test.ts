// The shell's bundle: built by the real script into a temporary folder, and self-contained
// (nothing but Node's built-ins and 'electron' is required at runtime).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../cli/run-weft.ts';

const requiredModules = (code: string): string[] => [...new Set([...code.matchAll(/\brequire\(\s*(["'`])([^"'`]+)\1\s*\)/g)].map((m) => m[2] ?? ''))].sort();
const allowed = (name: string): boolean => name === 'electron' || builtinModules.includes(name.replace(/^node:/, ''));

describe('build/bundle-electron.mjs', () => {
  const outdir = mkdtempSync(join(tmpdir(), 'weft-bundle-electron-'));
  execFileSync(process.execPath, [join(REPO_ROOT, 'build', 'bundle-electron.mjs'), '--outdir', outdir], { cwd: REPO_ROOT, encoding: 'utf8' });

  it('writes main.cjs, requiring only Node built-ins and electron', () => {
    const main = readFileSync(join(outdir, 'main.cjs'), 'utf8');
    const required = requiredModules(main);
    expect(required).toContain('electron');
    expect(required.filter((name) => !allowed(name))).toEqual([]);
    expect(main).not.toMatch(/\bimport\s*\(\s*["']/);
  });

  it('writes preload.cjs from electron/preload/preload.ts (when the preload exists), requiring only electron', () => {
    const source = existsSync(join(REPO_ROOT, 'electron', 'preload', 'preload.ts'));
    expect(existsSync(join(outdir, 'preload.cjs'))).toBe(source);
    if (source) expect(requiredModules(readFileSync(join(outdir, 'preload.cjs'), 'utf8')).filter((name) => !allowed(name))).toEqual([]);
  });

  it('is what package.json starts and builds', () => {
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
    expect(manifest.main).toBe('dist/electron/main.cjs');
    expect(manifest.scripts.build).toContain('node build/bundle-electron.mjs');
  });
});
