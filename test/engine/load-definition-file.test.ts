// Loading from disk: limits, encodings, and which failures are diagnostics versus thrown errors.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DefinitionFileError } from '../../engine/definition/definition-file-error.ts';
import { loadDefinitionFile } from '../../engine/definition/load-definition-file.ts';

const VALID = new URL('../fixtures/cli/valid.weft.json', import.meta.url);

describe('loadDefinitionFile', () => {
  let dir = '';
  let valid: Buffer = Buffer.alloc(0);
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'weft-load-'));
    valid = await readFile(VALID);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const write = async (name: string, contents: string | Uint8Array): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, contents);
    return path;
  };

  it('returns the workflow of a valid file', async () => {
    const r = await loadDefinitionFile(await write('ok.weft.json', valid));
    expect(r.diagnostics).toEqual([]);
    expect(r.workflow?.id).toBe('double-it');
  });

  it('drops a UTF-8 byte order mark', async () => {
    const r = await loadDefinitionFile(await write('bom.weft.json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), valid])));
    expect(r.diagnostics).toEqual([]);
  });

  it('refuses a file over the limit with its size and the limit', async () => {
    const r = await loadDefinitionFile(await write('big.weft.json', 'x'.repeat(3000)), { maxBytes: 2048 });
    expect(r.diagnostics).toEqual([
      expect.objectContaining({
        code: 'file-too-large',
        severity: 'error',
        message: expect.stringContaining('2.9 KiB (3,000 bytes); the limit for a workflow definition is 2.0 KiB'),
      }),
    ]);
  });

  it.runIf(process.platform === 'linux')('refuses a FIFO without opening it: only regular files are definitions', async () => {
    const fifo = join(dir, 'pipe.weft.json');
    execFileSync('mkfifo', [fifo]);
    // No writer ever comes: opening the FIFO would wait for ever, so the refusal must come first.
    await expect(loadDefinitionFile(fifo)).rejects.toThrow(/pipe\.weft\.json: it is a FIFO \(a named pipe\), not a regular file/);
  });

  it('reports bytes that are not UTF-8 with offset, line and column', async () => {
    const r = await loadDefinitionFile(await write('latin1.weft.json', Buffer.from([0x7b, 0x0a, 0x22, 0xe9, 0x22])));
    expect(r.diagnostics).toEqual([
      expect.objectContaining({ code: 'not-text', line: 2, column: 2, message: expect.stringContaining('byte 0xE9 at byte offset 3') }),
    ]);
  });

  it('names UTF-16 when the file starts with a UTF-16 byte order mark', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(valid.toString('utf8'), 'utf16le')]);
    const r = await loadDefinitionFile(await write('utf16.weft.json', utf16));
    expect(r.diagnostics).toEqual([expect.objectContaining({ code: 'not-text', message: expect.stringContaining('UTF-16') })]);
  });

  it.each([
    ['a missing file', () => join(dir, 'missing.weft.json'), 'ENOENT', 'no such file or directory'],
    ['a directory', () => dir, 'EISDIR', 'it is a directory'],
    ['a device', () => '/dev/null', 'not-a-file', 'it is a device or socket, not a file'],
  ])('throws DefinitionFileError for %s', async (_name, path, code, text) => {
    const error: unknown = await loadDefinitionFile(path()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DefinitionFileError);
    expect(error).toMatchObject({ code, path: path(), message: expect.stringContaining(`cannot read ${path()}: ${text}`) });
  });
});
