// Damaged stores through the real binary (issue 9, defect 11): flipped bytes, an unknown event
// type, a gap in a run's log, a definition snapshot that is not a workflow, and a store in a
// read-only folder. Each is refused by every command with one line that names the store or the
// run (offering SQLite's integrity check where the file is damaged), exit 2, and the file
// byte-identical. Damage in one run of several: damaged-log-writes-cli.test.ts.
import { chmodSync, chownSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { runWeft, STACK_LINE, type WeftResult } from './run-weft.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-damaged-'));
chmodSync(dir, 0o755);
const pristine = join(dir, 'pristine.db');
const file = join(dir, 'hold.weft.json');
writeFileSync(
  file,
  JSON.stringify({
    format: 'weft/v1',
    id: 'hold',
    version: 1,
    name: 'Hold',
    steps: [
      { id: 'first', kind: 'transform', config: { expression: '1' } },
      { id: 'pause', kind: 'wait', config: { durationMs: 3_600_000 } },
      { id: 'done', kind: 'end' },
    ],
    edges: [
      { id: 'e1', from: 'first', to: 'pause' },
      { id: 'e2', from: 'pause', to: 'done' },
    ],
  }),
);
let run = '';

beforeAll(async () => {
  const r = await runWeft(['run', file, '--db', pristine, '--json']);
  expect(r.code).toBe(3);
  run = (JSON.parse(r.stdout) as { runId: string }).runId;
});

/** A copy of the store with a run waiting, changed by `damage` (through SQLite, or byte by byte). */
function damaged(name: string, damage: (path: string) => void): string {
  const path = join(mkdtempSync(join(dir, `${name}-`)), 'store.db');
  copyFileSync(pristine, path);
  damage(path);
  return path;
}

function withSql(sql: string): (path: string) => void {
  return (path) => {
    const db = new Database(path);
    db.exec(sql);
    db.close();
  };
}

/** Every byte after the first page inverted: the schema reads, every table is garbage. */
function flipBytes(path: string): void {
  const bytes = readFileSync(path);
  for (let k = 4096; k < bytes.length; k++) bytes[k] = (bytes[k] as number) ^ 0xff;
  writeFileSync(path, bytes);
}

const READS = ['runs', 'tasks', 'inspect', 'events', 'stats'];

const commands = (): string[][] => [['runs'], ['tasks'], ['inspect', run], ['events', run], ['stats', 'hold'], ['resume', run], ['pause', run], ['resume']];

describe('a damaged store is refused by every command, unchanged', () => {
  it.each([
    ['flipped bytes', flipBytes, /the store .*store\.db is damaged \(SQLite: .*\); nothing was changed; check it with: sqlite3 .*store\.db "PRAGMA integrity_check"/, []],
    ['an unknown event type', withSql("UPDATE events SET type = 'from_the_future' WHERE seq = 2"), /run r\w+ event 2: unknown event type "from_the_future"; the store is damaged, or was written by a newer Weft/, ['runs']],
    ['a gap in a run’s sequence', withSql('DELETE FROM events WHERE seq = 2'), /run r\w+ has a gap in its event log: event 2 is missing; the store is damaged/, ['runs']],
    ['a definition snapshot that is not a workflow', withSql(`UPDATE definitions SET content = '{"hello": "world"}'`), /the definition snapshot of workflow "hold" version 1 is not a workflow \(.*\); the store is damaged/, ['runs', 'events']],
  ])('%s', async (name, damage, message, unaffected) => {
    const path = damaged(name.replace(/\W+/g, '-'), damage);
    const before = readFileSync(path);
    // The reads side by side (none takes the lease), then the commands that write, one by one.
    const reads = commands().filter((a) => READS.includes(a[0] as string));
    const results = await Promise.all(reads.map((args) => runWeft([...args, '--db', path])));
    expect(readFileSync(path).equals(before), 'a read command changed the file').toBe(true);
    for (const args of commands().filter((a) => !READS.includes(a[0] as string))) results.push(await runWeft([...args, '--db', path]));
    [...reads, ...commands().filter((a) => !READS.includes(a[0] as string))].forEach((args, k) => {
      const r = results[k] as WeftResult;
      expect(r.stderr).not.toContain(STACK_LINE);
      if (unaffected.includes(args[0] as string)) {
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBeLessThan(2);
        return;
      }
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.code).toBe(2);
    });
    // A command that writes is refused before it writes anything, the lease included.
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});

describe('a store in a read-only folder', () => {
  // Root may write anywhere: drop to "nobody" for the commands, so the folder's mode counts.
  const asUser = process.getuid?.() === 0 ? 65534 : undefined;

  it.runIf(process.platform === 'linux')('is refused by every command, saying what to make writable', async () => {
    const folder = join(dir, 'readonly');
    mkdirSync(folder);
    const path = join(folder, 'store.db');
    copyFileSync(pristine, path);
    if (asUser !== undefined) chownSync(path, asUser, asUser);
    chmodSync(path, 0o644);
    chmodSync(folder, 0o555);
    const before = readFileSync(path);
    for (const args of [['pause', run], ['resume', run], ['resume'], ['run', file]]) {
      const r = await runWeft([...args, '--db', path], dir, asUser === undefined ? {} : { uid: asUser });
      expect(r.stderr, args.join(' ')).toMatch(/cannot write the store .*readonly\/store\.db \(SQLite: .*\); check that the file and its folder are writable by you/);
      expect(r.stderr).not.toContain(STACK_LINE);
      expect(r.code).toBe(2);
    }
    // SQLite reads a store in WAL mode through files beside it, which it cannot create here.
    const runs = await runWeft(['runs', '--db', path], dir, asUser === undefined ? {} : { uid: asUser });
    expect(runs.stderr).toMatch(/cannot read the store .*readonly\/store\.db \(SQLite: .*\): to read a store, SQLite needs its folder writable/);
    expect(runs.code).toBe(2);
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(statSync(folder).mode & 0o777).toBe(0o555);
  });
});
