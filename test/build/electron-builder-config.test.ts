// The packaging config as electron-builder reads it: valid against electron-builder's own schema,
// the targets per platform, better-sqlite3 outside the asar and rebuilt for Electron, the app id,
// the .weft.json association, icons that exist at the sizes they claim, and files globs that pack
// the entry Electron starts. Packaging itself downloads Electron, so it cannot run here.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Configuration } from 'electron-builder';
import { ICO_SIZES, PNG_SIZES } from '../../build/make-icons.mjs';

const require = createRequire(import.meta.url);
const config = require('../../build/electron-builder.config.cjs') as Configuration;
const minimatch = require('minimatch') as (path: string, pattern: string, options?: { dot?: boolean }) => boolean;
const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as { validateConfiguration(c: Configuration, logger: unknown): Promise<void> };
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };

/** The agreed entry of the Electron main bundle (build/bundle-electron.mjs writes it). */
const MAIN_ENTRY = 'dist/electron/main.cjs';

function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** electron-builder's reading of `files`: later patterns win, `!` excludes. */
function packed(path: string): boolean {
  let included = false;
  for (const pattern of (config.files ?? []) as string[]) {
    if (pattern.startsWith('!')) {
      if (minimatch(path, pattern.slice(1), { dot: true })) included = false;
    } else if (minimatch(path, pattern, { dot: true })) included = true;
  }
  return included;
}

const targets = (platform: 'linux' | 'mac' | 'win'): unknown => config[platform]?.target;

describe('build/electron-builder.config.cjs', () => {
  it('is valid against electron-builder 26 schema (and that check refuses an unknown option)', async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    const broken: Configuration = { ...config, linux: { ...config.linux, category: 'Development', ...{ bogusOption: true } } };
    await expect(validateConfiguration(broken, new DebugLogger(false))).rejects.toThrow(/configuration\.linux/);
  });

  it('names the app and writes releases to dist/release', () => {
    expect(config.appId).toBe('studio.weft.app');
    expect(config.productName).toBe('Weft Studio');
    expect(config.directories?.output).toBe('dist/release');
  });

  it('builds AppImage and deb on Linux, a dmg on macOS and an NSIS installer on Windows', () => {
    expect(targets('linux')).toEqual(['AppImage', 'deb']);
    expect(config.linux?.category).toBe('Development');
    expect(config.linux?.maintainer).toMatch(/<.+@.+>/);
    expect(targets('mac')).toEqual(['dmg']);
    expect(config.mac?.category).toBe('public.app-category.developer-tools');
    expect(config.mac?.hardenedRuntime).toBe(true);
    expect(targets('win')).toEqual(['nsis']);
  });

  it('packs into an asar with better-sqlite3 unpacked and rebuilt for Electron', () => {
    expect(config.asar).toBe(true);
    const unpack = [config.asarUnpack ?? []].flat();
    const binary = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';
    expect(unpack.some((p) => minimatch(binary, p, { dot: true }))).toBe(true);
    expect(unpack.some((p) => minimatch('node_modules/zod/index.js', p, { dot: true }))).toBe(false);
    expect(config.npmRebuild).toBe(true);
    expect(packed(binary)).toBe(true);
  });

  it('associates .weft.json files as an editor of Weft workflows', () => {
    const associations = [config.fileAssociations ?? []].flat();
    expect(associations).toHaveLength(1);
    expect(associations[0]).toMatchObject({ ext: 'weft.json', name: 'Weft workflow', role: 'Editor' });
    // electron-builder writes NSIS associations only for a per-machine install.
    expect(config.nsis?.perMachine).toBe(true);
  });

  it('packs the Electron entry that package.json names, the app, the CLI bundle and production modules', () => {
    const pkg: unknown = JSON.parse(readFileSync('package.json', 'utf8'));
    const main: unknown = typeof pkg === 'object' && pkg !== null ? Reflect.get(pkg, 'main') : undefined;
    // package.json gains "main" with the main-process bundle; until then the agreed path is checked.
    if (main !== undefined) expect(main).toBe(MAIN_ENTRY);
    for (const path of [MAIN_ENTRY, 'dist/electron/preload.cjs', 'package.json', 'dist/app/index.html', 'dist/app/assets/index-abc.js', 'dist/cli/weft.js', 'bin/weft.js', 'bin/source-stamp.js', 'node_modules/fastify/package.json']) {
      expect(packed(path), path).toBe(true);
    }
    for (const path of ['engine/server/server.ts', 'renderer/main.tsx', 'test/electron/preload-contract.test.ts', 'dist/release/Weft Studio.AppImage', 'dist/app/assets/index-abc.js.map']) {
      expect(packed(path), path).toBe(false);
    }
  });

  it('has every icon it names, each PNG at its declared size and an ICO of those PNGs', () => {
    const linuxIcons = config.linux?.icon ?? '';
    expect(statSync(linuxIcons).isDirectory()).toBe(true);
    const pngs = readdirSync(linuxIcons).filter((f) => f.endsWith('.png'));
    expect(pngs.sort()).toEqual(PNG_SIZES.map((s) => `${s}x${s}.png`).sort());
    expect(PNG_SIZES).toEqual(expect.arrayContaining([16, 32, 256, 512, 1024]));
    for (const file of pngs) {
      const [w, h] = file.replace('.png', '').split('x').map(Number);
      expect(pngSize(readFileSync(join(linuxIcons, file))), file).toEqual({ width: w, height: h });
    }
    const macIcon = config.mac?.icon ?? '';
    expect(pngSize(readFileSync(macIcon))).toEqual({ width: 1024, height: 1024 });
    for (const file of [config.mac?.entitlements, config.mac?.entitlementsInherit]) expect(existsSync(file ?? ''), String(file)).toBe(true);

    const ico = readFileSync(config.win?.icon ?? '');
    expect(ico.readUInt16LE(0)).toBe(0);
    expect(ico.readUInt16LE(2)).toBe(1);
    const count = ico.readUInt16LE(4);
    expect(count).toBe(ICO_SIZES.length);
    for (let i = 0; i < count; i++) {
      const entry = 6 + 16 * i;
      const declared = ico.readUInt8(entry) === 0 ? 256 : ico.readUInt8(entry);
      expect(ico.readUInt8(entry + 1) === 0 ? 256 : ico.readUInt8(entry + 1)).toBe(declared);
      const length = ico.readUInt32LE(entry + 8);
      const offset = ico.readUInt32LE(entry + 12);
      expect(offset + length).toBeLessThanOrEqual(ico.length);
      expect(pngSize(ico.subarray(offset, offset + length))).toEqual({ width: declared, height: declared });
      expect(declared).toBe(ICO_SIZES[i]);
    }
  });
});
