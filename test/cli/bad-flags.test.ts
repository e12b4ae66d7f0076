// Odd values of flags through main() in this process (issue 9, defect 11): each gets one line
// that names the problem and the flag, run or file, exit 2, and the store stays as it was. Never
// a stack, a hang, or a value stored as something else. The same argv, exit code and output as
// the binary without a process start per case; bad-flags-cli.test.ts keeps one case of each kind
// (and the FIFOs, which only a process can show are not waited on) through the real binary.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { overrideEnv } from '../env-override.ts';
import { weftInProcess } from './capture-io.ts';
import { badFlagsStore } from './bad-flags-store.ts';
import { STACK_LINE } from './run-weft.ts';

const { dir, db, file, folder, jsonFlags, start, runId, refused } = badFlagsStore(weftInProcess);

let restoreEnv: (() => void) | undefined;
afterEach(() => {
  restoreEnv?.();
  restoreEnv = undefined;
});

beforeAll(start);

describe('JSON flags', () => {
  const flags = jsonFlags;

  it.each(flags)('invalid JSON in %s names that flag', async (flag, args) => {
    const r = await refused([...args, '{"a": 1,}'], new RegExp(`${flag} is not valid JSON at line 1, column 9`));
    if (flag !== '--input') expect(r.stderr).not.toContain('--input');
  });

  it.each(flags)('a folder given to %s as @file is refused as not a regular file', async (flag, args) => {
    const r = await refused([...args, `@${folder}`], new RegExp(`${flag} @.*a-folder: .*is a folder, not a regular file`));
    if (flag !== '--input') expect(r.stderr).not.toContain('--input');
  });

  it('refuses 100,000 nested objects in --input @file, saying how deep is allowed', async () => {
    const deep = join(dir, 'deep.json');
    writeFileSync(deep, `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`);
    await refused(['run', file, '--db', db, '--input', `@${deep}`], /--input @.*deep\.json: the JSON nests deeper than \d+ levels at \$\.a\.a/);
    await refused(['approve', 'RUN', 'review', '--db', db, '--data', `@${deep}`], /--data @.*deep\.json: the JSON nests deeper than/);
  });

  it('refuses a number JSON cannot keep (1e999999) instead of storing null', async () => {
    await refused(['send', 'arrived', '--key', 'k1', '--db', db, '--data', '1e999999'], /--data: the number 1e999999 at \$ is too large to store as JSON/);
    await refused(['run', file, '--db', db, '--input', '{"amount": [1, -1e400]}'], /--input: the number -1e400 at \$\.amount\[1\] is too large/);
  });
});

describe('a run id of 50,000 characters', () => {
  const long = 'r'.repeat(50_000);
  it.each([
    ['inspect'], ['events'], ['resume'], ['pause'], ['cancel'], ['revise', '--input', '{}'], ['fork', '--from', 'review'],
    ['retry', 'review'], ['skip', 'review', '--output', '{}', '--reason', 'x'], ['resolve', 'review', '--as', 'failed'],
    ['approve', 'review'], ['reject', 'review', '--reason', 'x'], ['reassign', 'review', '--to', 'ann'],
  ])('is an unknown run for weft %s, named in short', async (command, ...rest) => {
    const r = await refused([command, long, ...rest, '--db', db], /no run "r{20,60}…" \(50000 characters\) in this store/);
    expect(r.stderr.length).toBeLessThan(400);
  });
});

describe('values that are accepted but mean nothing', () => {
  it('refuses weft reassign --to ""', async () => {
    for (const to of ['', '   ']) {
      const r = await weftInProcess(['reassign', runId(), 'review', '--to', to, '--db', db], dir);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--to needs a name/);
    }
  });

  it('refuses to trust a folder that does not exist, or a file, and records nothing', async () => {
    restoreEnv = overrideEnv({ WEFT_CONFIG_DIR: mkdtempSync(join(dir, 'config-')) });
    const missing = await weftInProcess(['trust', join(dir, 'no-such-folder')], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/weft trust: .*no-such-folder does not exist; give the folder of a workspace/);
    const notDir = await weftInProcess(['trust', file], dir);
    expect(notDir.code).toBe(2);
    expect(notDir.stderr).toMatch(/ship\.weft\.json is a file, not a folder/);
    const list = await weftInProcess(['trust', '--list', '--json'], dir);
    expect(JSON.parse(list.stdout)).toEqual({ workspaces: [] });
  });

  it('says so when the config folder is a file', async () => {
    const notAFolder = join(dir, 'config-file');
    writeFileSync(notAFolder, 'not a folder');
    restoreEnv = overrideEnv({ WEFT_CONFIG_DIR: notAFolder });
    for (const args of [['trust', folder], ['trust', '--list'], ['trust', folder, '--revoke']]) {
      const r = await weftInProcess(args, dir);
      expect(r.stderr).toMatch(/the config folder .*config-file is a file, not a folder; set WEFT_CONFIG_DIR to a folder/);
      expect(r.stderr).not.toContain(STACK_LINE);
      expect(r.code).toBe(2);
    }
  });
});
