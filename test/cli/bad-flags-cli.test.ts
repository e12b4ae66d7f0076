// Odd values of flags through the real binary (issue 9, defect 11): each gets one line that names
// the problem and the flag, run or file, exit 2, and the store stays as it was. Never a stack, a
// hang, or a value stored as something else. Every case runs in-process in bad-flags.test.ts; here
// one case of each kind keeps the binary's contract (exit code, the bytes on stderr), with the
// FIFOs (a process that waits on one would hang) and the deep nesting (the process's own stack).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runWeft, STACK_LINE } from './run-weft.ts';
import { badFlagsStore } from './bad-flags-store.ts';

const { dir, db, file, folder, jsonFlags, start, refused } = badFlagsStore((args, cwd) => runWeft(args, cwd));

beforeAll(start);

describe('JSON flags', () => {
  const flags = jsonFlags;

  it.each([...flags.slice(0, 1), ...flags.slice(4, 5)])('invalid JSON in %s names that flag, and a folder given as @file is refused', async (flag, args) => {
    const r = await refused([...args, '{"a": 1,}'], new RegExp(`${flag} is not valid JSON at line 1, column 9`));
    if (flag !== '--input') expect(r.stderr).not.toContain('--input');
    const f = await refused([...args, `@${folder}`], new RegExp(`${flag} @.*a-folder: .*is a folder, not a regular file`));
    if (flag !== '--input') expect(f.stderr).not.toContain('--input');
  });

  it.runIf(process.platform === 'linux')('a FIFO given as --input @file is refused, not waited on', async () => {
    const fifo = join(dir, 'input.fifo');
    execFileSync('mkfifo', [fifo]);
    await refused(['run', file, '--db', db, '--input', `@${fifo}`], /--input @.*input\.fifo: .*is a FIFO \(a named pipe\), not a regular file/);
    await refused(['approve', 'RUN', 'review', '--db', db, '--data', `@${fifo}`], /--data @.*input\.fifo: .*is a FIFO \(a named pipe\), not a regular file/);
  });

  it('refuses 100,000 nested objects in --input @file, saying how deep is allowed', async () => {
    const deep = join(dir, 'deep.json');
    writeFileSync(deep, `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`);
    await refused(['run', file, '--db', db, '--input', `@${deep}`], /--input @.*deep\.json: the JSON nests deeper than \d+ levels at \$\.a\.a/);
    await refused(['approve', 'RUN', 'review', '--db', db, '--data', `@${deep}`], /--data @.*deep\.json: the JSON nests deeper than/);
  });
});

describe('a run id of 50,000 characters', () => {
  const long = 'r'.repeat(50_000);
  it.each([['inspect'], ['approve', 'review']])('is an unknown run for weft %s, named in short', async (command, ...rest) => {
    const r = await refused([command, long, ...rest, '--db', db], /no run "r{20,60}…" \(50000 characters\) in this store/);
    expect(r.stderr.length).toBeLessThan(400);
  });
});

describe('values that are accepted but mean nothing', () => {
  it('refuses to trust a folder that does not exist, and says so when the config folder is a file', async () => {
    const missing = await runWeft(['trust', join(dir, 'no-such-folder')], dir, { env: { WEFT_CONFIG_DIR: mkdtempSync(join(dir, 'config-')) } });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/weft trust: .*no-such-folder does not exist; give the folder of a workspace/);
    expect(missing.stderr).not.toContain(STACK_LINE);
    const notAFolder = join(dir, 'config-file');
    writeFileSync(notAFolder, 'not a folder');
    const r = await runWeft(['trust', '--list'], dir, { env: { WEFT_CONFIG_DIR: notAFolder } });
    expect(r.stderr).toMatch(/the config folder .*config-file is a file, not a folder; set WEFT_CONFIG_DIR to a folder/);
    expect(r.stderr).not.toContain(STACK_LINE);
    expect(r.code).toBe(2);
  });
});

describe('definition files', () => {
  it.runIf(process.platform === 'linux')('refuses a FIFO as a workflow file instead of waiting on it', async () => {
    const fifo = join(dir, 'flow.weft.json');
    execFileSync('mkfifo', [fifo]);
    for (const command of ['run', 'validate']) {
      const r = await runWeft([command, fifo, '--db', db].slice(0, command === 'run' ? 4 : 2), dir);
      expect(r.stderr).toMatch(/flow\.weft\.json: it is a FIFO \(a named pipe\), not a regular file/);
      expect(r.code).toBe(2);
    }
    const stats = await runWeft(['stats', fifo, '--db', db], dir);
    expect(stats.stderr).toMatch(/flow\.weft\.json is a FIFO \(a named pipe\), not a regular file; give the file of a workflow, or its id/);
    expect(stats.code).toBe(2);
  });
});
