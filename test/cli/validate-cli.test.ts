// The `weft validate` contract as scripts rely on it: exit codes, the line format, --json shape.
import { mkdtemp, copyFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runWeft, STACK_LINE } from './run-weft.ts';

const VALID = 'test/fixtures/cli/valid.weft.json';
const SCHEMA_INVALID = 'test/fixtures/cli/schema-invalid.weft.json';

describe.concurrent('weft validate', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'weft-validate-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('exits 0 and prints "valid" for a valid file', async () => {
    const r = await runWeft(['validate', VALID]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${VALID}: valid\n`);
    expect(r.stderr).toBe('');
  });

  it('exits 1 for a schema-invalid file and names the step id', async () => {
    const r = await runWeft(['validate', SCHEMA_INVALID]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${SCHEMA_INVALID}: fetch: schema-violation: $.steps[0].config.method`);
    expect(r.stdout).toMatch(/: \d+ errors?\n$/);
  });

  it('prints {"files":[...]} with --json, one entry per file', async () => {
    const r = await runWeft(['validate', '--json', VALID, SCHEMA_INVALID]);
    expect(r.code).toBe(1);
    const out: unknown = JSON.parse(r.stdout);
    expect(out).toEqual({
      files: [
        { file: VALID, valid: true, diagnostics: [] },
        {
          file: SCHEMA_INVALID,
          valid: false,
          diagnostics: [expect.objectContaining({ code: 'schema-violation', severity: 'error', stepId: 'fetch' })],
        },
      ],
    });
  });

  it('exits 2 for a missing file, still reports the other files, and names the path', async () => {
    const r = await runWeft(['validate', 'missing.weft.json', VALID]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`cannot read ${join(REPO_ROOT, 'missing.weft.json')}: no such file or directory`);
    expect(r.stdout).toContain(`${VALID}: valid`);
    expect(r.stderr).not.toContain(STACK_LINE);
  });

  it('lists an unreadable file in --json with "error" and valid false', async () => {
    const r = await runWeft(['validate', '--json', 'missing.weft.json']);
    expect(r.code).toBe(2);
    const out: unknown = JSON.parse(r.stdout);
    expect(out).toEqual({
      files: [{ file: 'missing.weft.json', valid: false, diagnostics: [], error: expect.stringContaining('no such file') }],
    });
  });

  it('exits 2 with usage on stderr when no file is given', async () => {
    const r = await runWeft(['validate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no files given');
    expect(r.stderr).toContain('usage: weft validate');
    expect(r.stdout).toBe('');
  });

  it('exits 2 for an unknown flag and says which flags exist', async () => {
    const r = await runWeft(['validate', '--strict', VALID]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown option "--strict"; it accepts --json');
    expect(r.stderr).not.toContain(STACK_LINE);
  });

  it('checks the *.weft.json files directly inside a folder given as FILE', async () => {
    await copyFile(join(REPO_ROOT, VALID), join(dir, 'b.weft.json'));
    await copyFile(join(REPO_ROOT, VALID), join(dir, 'a.weft.json'));
    await copyFile(join(REPO_ROOT, VALID), join(dir, 'notes.json'));
    const r = await runWeft(['validate', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${join(dir, 'a.weft.json')}: valid\n${join(dir, 'b.weft.json')}: valid\n`);
  });

  it('exits 2 for a folder with no workflow files', async () => {
    const empty = await mkdtemp(join(dir, 'empty-'));
    const r = await runWeft(['validate', empty]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no *.weft.json files in this folder');
  });
});

describe.concurrent('weft', () => {
  it('prints usage on stdout for --help and help, exit 0', async () => {
    for (const args of [['--help'], ['help']]) {
      const r = await runWeft(args);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('usage: weft <command>');
      expect(r.stdout).toContain('validate');
    }
  });

  it('documents folder expansion in the validate help', async () => {
    const r = await runWeft(['validate', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('every *.weft.json file directly inside it');
  });

  it('exits 2 with usage on stderr for an unknown command or no command', async () => {
    for (const args of [['frobnicate'], []]) {
      const r = await runWeft(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('usage: weft <command>');
      expect(r.stdout).toBe('');
    }
  });
});
