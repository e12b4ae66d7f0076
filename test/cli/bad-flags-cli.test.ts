// Odd values of flags through the real binary (issue 9, defect 11): each gets one line that names
// the problem and the flag, run or file, exit 2, and the store stays as it was. Never a stack, a
// hang, or a value stored as something else. Every case runs in-process in bad-flags.test.ts; here
// one case of each kind keeps the binary's contract (exit code, the bytes on stderr), with the
// FIFOs (a process that waits on one would hang) and the deep nesting (the process's own stack).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { runWeft, STACK_LINE, type WeftResult } from './run-weft.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-bad-flags-'));
const db = join(dir, 'store.db');
const file = join(dir, 'ship.weft.json');
writeFileSync(
  file,
  JSON.stringify({
    format: 'weft/v1',
    id: 'ship',
    version: 1,
    name: 'Ship',
    steps: [
      { id: 'review', kind: 'human', config: { task: 'approve', title: 'Ship it?' }, deadlineMs: 86_400_000 },
      { id: 'arrive', kind: 'event', config: { name: 'arrived', correlationKey: '"k1"' }, deadlineMs: 86_400_000 },
      { id: 'done', kind: 'end' },
      { id: 'late', kind: 'end', config: { status: 'failed' } },
    ],
    edges: [
      { id: 'e1', from: 'review', to: 'arrive' },
      { id: 'e2', from: 'arrive', to: 'done' },
      { id: 'e3', from: 'review', to: 'late', on: 'expired' },
      { id: 'e4', from: 'arrive', to: 'late', on: 'expired' },
    ],
  }),
);
const folder = join(dir, 'a-folder');
mkdirSync(folder);
let run = '';

const eventCount = (): number => {
  const d = new Database(db, { readonly: true });
  const n = (d.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n + (d.prepare('SELECT COUNT(*) AS n FROM external_events').get() as { n: number }).n;
  d.close();
  return n;
};

/** Exit 2, one line on stderr that matches, no stack, and nothing new in the store. */
async function refused(args: readonly string[], message: RegExp, options: Parameters<typeof runWeft>[2] = {}): Promise<WeftResult> {
  const before = eventCount();
  const r = await runWeft(args.map((a) => (a === 'RUN' ? run : a)), dir, options);
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toContain(STACK_LINE);
  expect(r.stderr.trimEnd().split('\n')[0]).toMatch(message);
  expect(r.code).toBe(2);
  expect(eventCount()).toBe(before);
  return r;
}

beforeAll(async () => {
  const r = await runWeft(['run', file, '--db', db, '--json'], dir);
  expect(r.code).toBe(3);
  run = (JSON.parse(r.stdout) as { runId: string }).runId;
});

describe('JSON flags', () => {
  const flags: [string, string[]][] = [
    ['--data', ['approve', 'RUN', 'review', '--db', db, '--data']],
    ['--data', ['send', 'arrived', '--key', 'k1', '--db', db, '--data']],
    ['--output', ['skip', 'RUN', 'review', '--reason', 'x', '--db', db, '--output']],
    ['--evidence', ['resolve', 'RUN', 'review', '--as', 'succeeded', '--db', db, '--evidence']],
    ['--input', ['retry', 'RUN', 'review', '--db', db, '--input']],
    ['--input', ['revise', 'RUN', '--db', db, '--input']],
  ];

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
