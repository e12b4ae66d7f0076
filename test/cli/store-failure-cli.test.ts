// A fatal store error while the engine runs (issue 9, defect 9): the real binary stops with one
// line naming the store and the cause, and exits 2, instead of exiting 13 (an unsettled
// top-level await) with nothing printed, or hanging while a timer is armed. The full disk is real:
// the store lives on a small tmpfs mounted for this test (root only; skipped where mounting is
// not permitted, and the engine-level seam test in test/engine/store-failure.test.ts still runs).
import { execFileSync } from 'node:child_process';
import { closeSync, fstatSync, mkdirSync, mkdtempSync, openSync, readSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWeft, STACK_LINE } from './run-weft.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-cli-store-failure-'));
const small = join(dir, 'small-disk');

/**
 * A disk that holds a new store while it is made (its file and its WAL across twelve migrations
 * need between 256 and 288 KB at their largest; 256 KB was enough before the twelfth) but not a 400 KB output.
 */
function mountSmallDisk(): boolean {
  mkdirSync(small, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=512k', 'tmpfs', small], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const mounted = mountSmallDisk();

afterAll(() => {
  if (mounted) execFileSync('umount', [small], { stdio: 'ignore' });
  rmSync(dir, { recursive: true, force: true });
});

/** A step whose output (400 KB) cannot fit on the small disk; `hold` (when given) arms a timer in the same tick. */
const filler = (id: string, withTimer: boolean) => ({
  format: 'weft/v1', id, version: 1, name: id,
  steps: [
    { id: 'fill', kind: 'transform', config: { expression: '$pad("x", 400000, "y")' } },
    { id: 'done', kind: 'end' },
    ...(withTimer ? [{ id: 'hold', kind: 'wait', config: { durationMs: 3_600_000 } }, { id: 'after', kind: 'join', config: { mode: 'all' } }] : []),
  ],
  edges: withTimer
    ? [{ id: 'a', from: 'fill', to: 'after' }, { id: 'b', from: 'hold', to: 'after' }, { id: 'c', from: 'after', to: 'done' }]
    : [{ id: 'a', from: 'fill', to: 'done' }],
});

function expectOneLineStoreError(r: { code: number; stdout: string; stderr: string }, store: string, cause: RegExp): void {
  expect(r.stderr).not.toContain(STACK_LINE);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toContain(store);
  expect(r.stderr).toMatch(cause);
  expect(r.code).toBe(2);
}

describe.skipIf(!mounted)('a store on a full disk', () => {
  for (const withTimer of [false, true]) {
    it(`weft run stops with one line and exit 2${withTimer ? ', with a timer armed' : ''}`, async () => {
      const db = join(small, `full-${withTimer ? 'timer' : 'plain'}.db`);
      const file = join(dir, `fill-${withTimer ? 'timer' : 'plain'}.weft.json`);
      writeFileSync(file, JSON.stringify(filler(`fill-${withTimer ? 'timer' : 'plain'}`, withTimer)));
      try {
        const r = await runWeft(['run', file, '--db', db], dir);
        expectOneLineStoreError(r, db, /full/);
      } finally {
        // The next test needs the space back.
        for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
      }
    });
  }
});

describe.skipIf(!mounted)('a full disk, and what the message says to do next', () => {
  const config = join(dir, 'config');

  it('when the run\'s very first commit fails: run the command again, since weft resume would find nothing', async () => {
    const db = join(small, 'first-commit.db');
    const file = join(dir, 'fill-first.weft.json');
    writeFileSync(file, JSON.stringify(filler('fill-first', false)));
    try {
      const r = await runWeft(['run', file, '--db', db], dir, { timeoutMs: 30_000 });
      expectOneLineStoreError(r, db, /the disk is full/);
      expect(r.stderr).toMatch(/free some space, then run the command again \(nothing of it was stored\)/);
      expect(r.stderr).not.toContain('weft resume');
      // And indeed there is nothing to resume.
      const resumed = await runWeft(['resume', '--db', db, '--json'], dir);
      expect([resumed.code, resumed.stdout]).toEqual([0, '']);
    } finally {
      for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
    }
  });

  it('when a later commit fails: weft resume continues the run once there is space', async () => {
    const db = join(small, 'later-commit.db');
    const file = join(dir, 'fill-later.weft.json');
    // The command's start is committed first; its end and the big output after it are not.
    writeFileSync(file, JSON.stringify({
      format: 'weft/v1', id: 'fill-later', version: 1, name: 'fill later',
      steps: [
        { id: 'ask', kind: 'command', config: { argv: ['echo', '{}'] } },
        { id: 'fill', kind: 'transform', config: { expression: '$pad("x", 400000, "y")' } },
        { id: 'done', kind: 'end' },
      ],
      edges: [{ id: 'a', from: 'ask', to: 'fill' }, { id: 'b', from: 'fill', to: 'done' }],
    }));
    const env = { WEFT_CONFIG_DIR: config };
    expect((await runWeft(['trust', dir], dir, { env })).code).toBe(0);
    try {
      const r = await runWeft(['run', file, '--db', db], dir, { timeoutMs: 30_000, env });
      expectOneLineStoreError(r, db, /the disk is full/);
      expect(r.stderr).toMatch(/free some space, then run `weft resume` to continue/);
      const listed = await runWeft(['runs', '--db', db, '--json'], dir);
      expect((JSON.parse(listed.stdout) as { runs: { state: string }[] }).runs.map((x) => x.state)).toEqual(['running']);
    } finally {
      for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
    }
  });
});

describe('a store whose pages are damaged', () => {
  const db = join(dir, 'damaged.db');
  const file = join(dir, 'waits.weft.json');
  let runId = '';

  beforeAll(async () => {
    // A run that waits on a timer, with enough events that the log spans many pages.
    writeFileSync(file, JSON.stringify({
      format: 'weft/v1', id: 'waits', version: 1, name: 'waits',
      steps: [
        { id: 'big', kind: 'transform', config: { expression: '$pad("x", 60000, "y")' } },
        { id: 'hold', kind: 'wait', config: { durationMs: 3_600_000 } },
        { id: 'done', kind: 'end' },
      ],
      edges: [{ id: 'a', from: 'big', to: 'hold' }, { id: 'b', from: 'hold', to: 'done' }],
    }));
    const r = await runWeft(['run', file, '--db', db, '--json'], dir);
    expect(r.code).toBe(3);
    runId = (JSON.parse(r.stdout) as { runId: string }).runId;
    // Flip every byte of the pages past the first few (the schema stays readable, the log does not).
    const fd = openSync(db, 'r+');
    const size = fstatSync(fd).size;
    const page = Buffer.alloc(4096);
    for (let at = 4096 * 6; at + 4096 <= size; at += 4096) {
      readSync(fd, page, 0, 4096, at);
      for (let k = 0; k < page.length; k++) page[k] = (page[k] ?? 0) ^ 0xff;
      writeSync(fd, page, 0, 4096, at);
    }
    closeSync(fd);
  });

  it('weft resume stops with one line naming the store and exit 2', async () => {
    const r = await runWeft(['resume', '--db', db], dir);
    expectOneLineStoreError(r, db, /damaged|malformed/);
  });

  it('weft resume RUN stops with one line naming the store and exit 2', async () => {
    const r = await runWeft(['resume', runId, '--db', db], dir);
    expectOneLineStoreError(r, db, /damaged|malformed/);
  });

  it('weft run stops with one line naming the store and exit 2', async () => {
    const r = await runWeft(['run', file, '--db', db], dir);
    expectOneLineStoreError(r, db, /damaged|malformed/);
  });
});
