// Main's app-data files (settings, provider keys, window state) on real files: the folder is made
// when missing, the file is readable by the user alone even when an older one was not, and a
// missing or damaged file reads as nothing.
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { readJsonFile, writeAppDataFile } from '../../electron/main/app-data-file.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it('writes into a folder it makes, readable by the user alone, and reads it back', () => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-app-data-'));
  dirs.push(dir);
  const file = join(dir, 'userData', 'settings.json');
  writeAppDataFile(file, '{"theme":"dark"}\n');
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(readJsonFile(file)).toEqual({ theme: 'dark' });
  chmodSync(file, 0o644);
  writeAppDataFile(file, '{"theme":"light"}\n');
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(readdirSync(join(dir, 'userData'))).toEqual(['settings.json']);
});

it('reads a missing file or one that is not JSON as undefined', () => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-app-data-'));
  dirs.push(dir);
  expect(readJsonFile(join(dir, 'missing.json'))).toBeUndefined();
  writeFileSync(join(dir, 'damaged.json'), '{"theme":');
  expect(readJsonFile(join(dir, 'damaged.json'))).toBeUndefined();
});
