// The one atomic write of the engine and the desktop shell (shared-node/atomic-file.ts), on real
// files: whole or not at all, modes kept or set, no temporary file left behind, and a refusal to
// overwrite when asked.
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../shared-node/atomic-file.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-atomic-'));
  dirs.push(dir);
  return dir;
};
const modeOf = (path: string): number => statSync(path).mode & 0o777;

describe('writeFileAtomic', () => {
  it('writes a new file, and replaces an old one keeping its mode, with nothing else left in the folder', () => {
    const dir = tempDir();
    const file = join(dir, 'flow.weft.json');
    writeFileAtomic(file, '{"a":1}');
    writeFileSync(join(dir, 'plain'), '');
    expect(modeOf(file)).toBe(modeOf(join(dir, 'plain')));
    chmodSync(file, 0o640);
    writeFileAtomic(file, new TextEncoder().encode('{"a":2}'));
    expect(readFileSync(file, 'utf8')).toBe('{"a":2}');
    expect(modeOf(file)).toBe(0o640);
    expect(readdirSync(dir).sort()).toEqual(['flow.weft.json', 'plain']);
  });

  it('gives the file the mode it is asked for, over the mode of the file it replaces', () => {
    const dir = tempDir();
    const file = join(dir, 'provider-keys.json');
    writeFileSync(file, 'old');
    chmodSync(file, 0o644);
    writeFileAtomic(file, 'secret', { mode: 0o600 });
    expect(modeOf(file)).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toBe('secret');
  });

  it('with replace: false, refuses (EEXIST) a file that exists and leaves it as it was', () => {
    const dir = tempDir();
    const file = join(dir, 'new.weft.json');
    writeFileAtomic(file, 'first', { replace: false });
    expect(() => writeFileAtomic(file, 'second', { replace: false })).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    expect(readFileSync(file, 'utf8')).toBe('first');
    expect(readdirSync(dir)).toEqual(['new.weft.json']);
  });

  it('creates the missing folders only when asked, and otherwise fails with ENOENT and writes nothing', () => {
    const dir = tempDir();
    const file = join(dir, 'app-data', 'nested', 'settings.json');
    expect(() => writeFileAtomic(file, '{}')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    expect(readdirSync(dir)).toEqual([]);
    writeFileAtomic(file, '{}', { createFolder: true });
    expect(readFileSync(file, 'utf8')).toBe('{}');
  });

  it('fails with the file system error under a path that is a file (ENOTDIR), leaving no temporary file', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'plain-file'), 'x');
    expect(() => writeFileAtomic(join(dir, 'plain-file', 'out.json'), '{}')).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
    expect(readdirSync(dir)).toEqual(['plain-file']);
  });
});
