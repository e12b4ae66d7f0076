// Hostile and accidental inputs through the real CLI: each gets a clear message and exit code,
// never a crash or a stack trace.
import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runWeft, STACK_LINE, type WeftResult } from './run-weft.ts';

describe.concurrent('weft validate on bad input', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'weft-bad-input-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function validate(name: string, contents: string | Uint8Array): Promise<WeftResult> {
    const file = join(dir, name);
    await writeFile(file, contents);
    const r = await runWeft(['validate', file]);
    expect(r.stderr).not.toContain(STACK_LINE);
    return r;
  }

  it('reports an empty file', async () => {
    const r = await validate('empty.weft.json', '');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('workflow: empty-file: the file is empty');
  });

  it('reports a binary file as not text', async () => {
    // Deterministic "random" bytes with NULs and bytes that are not UTF-8.
    const bytes = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919 + (i >> 3)) % 256);
    const r = await validate('binary.weft.json', bytes);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('workflow: not-text:');
  });

  it('refuses a 50 MB file by its size, before reading it', async () => {
    const file = join(dir, 'huge.weft.json');
    await writeFile(file, '');
    await truncate(file, 50 * 1024 * 1024); // sparse: all NUL bytes, so reading it would say not-text
    const r = await runWeft(['validate', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('file-too-large: the file is 50 MiB (52,428,800 bytes); the limit for a workflow definition is 16 MiB');
    expect(r.stderr).not.toContain(STACK_LINE);
  });

  it('reports 200,000 levels of nesting as too deep', async () => {
    const depth = 200_000;
    const r = await validate('deep.weft.json', '['.repeat(depth) + ']'.repeat(depth));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('workflow: too-deep: the JSON nests deeper than 64 levels');
  });

  it('reports 200,000 unclosed brackets as a JSON syntax error with its position', async () => {
    const r = await validate('unclosed.weft.json', '['.repeat(200_000));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('not-json: not valid JSON at line 1, column 200001');
  });

  it('reports invalid UTF-8 with its byte offset', async () => {
    const latin1 = Buffer.concat([Buffer.from('{\n  "name": "caf'), Buffer.from([0xe9]), Buffer.from('"\n}')]);
    const r = await validate('latin1.weft.json', latin1);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('not-text: the file is not UTF-8 text: byte 0xE9 at byte offset 16 (line 2, column 15)');
  });

  it('accepts a file that starts with a UTF-8 byte order mark', async () => {
    const valid = await readFile(join(REPO_ROOT, 'test/fixtures/cli/valid.weft.json'));
    const r = await validate('bom.weft.json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), valid]));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/bom\.weft\.json: valid\n$/);
  });

  it('reports a JSON array where a workflow object belongs', async () => {
    const r = await runWeft(['validate', 'test/fixtures/cli/not-an-object.weft.json']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('workflow: schema-violation: $: expected object, received array');
    expect(r.stderr).not.toContain(STACK_LINE);
  });
});
