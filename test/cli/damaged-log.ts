// The tests of a store whose log does not read as weft's (issue 19, item 5), shared by the two files
// that run them: damaged-log-writes.test.ts calls main() in-process for every kind of damage,
// damaged-log-writes-cli.test.ts the real binary for one kind (the exit code and the bytes on
// stderr of the process). Every command that writes is refused, whichever run the damage is in:
// the store is checked as a whole before anything is written (engine/store/check-log.ts): exit 2,
// one line naming the run, the event and what is wrong, and the file byte-identical (hashed).
// Commands that read still read the other runs, and say which run is damaged.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { STACK_LINE, type WeftResult } from './run-weft.ts';

/** Runs `weft ARGS` from the repository's folder: the real binary or main() in-process. */
export type Weft = (args: string[]) => Promise<WeftResult>;

/** A kind of damage: its name, the SQL that does it to a run, and the message that must name it. */
export type Kind = [string, (run: string) => string, (run: string) => RegExp];

export const KINDS: readonly Kind[] = [
  [
    'an event of an unknown type appended to a run',
    (run) => `INSERT INTO events (run_id, seq, at, type, data) SELECT run_id, MAX(seq) + 1, MAX(at), 'teleported', '{}' FROM events WHERE run_id = '${run}'`,
    (run) => new RegExp(`run ${run} event \\d+: unknown event type "teleported"; the store is damaged, or was written by a newer Weft`),
  ],
  [
    'an event whose type was changed',
    (run) => `UPDATE events SET type = 'from_the_future' WHERE run_id = '${run}' AND seq = 2`,
    (run) => new RegExp(`run ${run} event 2: unknown event type "from_the_future"; the store is damaged`),
  ],
  [
    'a gap in a run’s sequence',
    (run) => `DELETE FROM events WHERE run_id = '${run}' AND seq = 2`,
    (run) => new RegExp(`run ${run} has a gap in its event log: event 2 is missing; the store is damaged`),
  ],
  [
    'a definition snapshot that is not a workflow',
    () => `UPDATE definitions SET content = '{"hello": "world"}' WHERE workflow_id = 'hold'`,
    () => /the definition snapshot of workflow "hold" version 1 is not a workflow \(.*\); the store is damaged/,
  ],
];

const waits = (id: string, step: Record<string, unknown>) => ({
  format: 'weft/v1', id, version: 1, name: id,
  input: { type: 'object', properties: { key: { type: 'string' } } },
  steps: [{ id: 'first', kind: 'transform', config: { expression: '1' } }, step, { id: 'done', kind: 'end' }],
  edges: [{ id: 'e1', from: 'first', to: step['id'] }, { id: 'e2', from: step['id'], to: 'done' }],
});

const hash = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Registers the tests of the kinds of damage given, calling weft through `weft`. */
export function damagedLogTests(weft: Weft, kinds: readonly Kind[]): void {
  const dir = mkdtempSync(join(tmpdir(), 'weft-damaged-log-'));
  const pristine = join(dir, 'pristine.db');
  const hold = join(dir, 'hold.weft.json');
  const other = join(dir, 'other.weft.json');
  writeFileSync(hold, JSON.stringify(waits('hold', { id: 'pause', kind: 'wait', config: { durationMs: 3_600_000 } })));
  writeFileSync(other, JSON.stringify(waits('other', { id: 'go', kind: 'event', config: { name: 'go', correlationKey: 'input.key' }, deadlineMs: 3_600_000 })));

  /** The damaged run (of workflow hold) and a sound one (of workflow other) that waits for event go/k1. */
  let damagedRun = '';
  let soundRun = '';

  beforeAll(async () => {
    const a = await weft(['run', hold, '--db', pristine, '--json']);
    const b = await weft(['run', other, '--input', '{"key":"k1"}', '--db', pristine, '--json']);
    expect([a.code, b.code], a.stderr + b.stderr).toEqual([3, 3]);
    damagedRun = (JSON.parse(a.stdout) as { runId: string }).runId;
    soundRun = (JSON.parse(b.stdout) as { runId: string }).runId;
  });

  function damaged(name: string, sql: (run: string) => string): string {
    const path = join(mkdtempSync(join(dir, `${name}-`)), 'store.db');
    copyFileSync(pristine, path);
    const db = new Database(path);
    db.exec(sql(damagedRun));
    db.close();
    expect(existsSync(`${path}-wal`)).toBe(false);
    return path;
  }

  const writes = (): string[][] => [
    ['run', other, '--input', '{"key":"k2"}'],
    ['send', 'go', '--key', 'k1'],
    ['resume'],
    ['resume', soundRun],
    ['revise', soundRun, '--input', '{"key":"k1"}'],
    ['pause', soundRun],
    ['cancel', soundRun],
    ['serve', '--workspace', dir],
  ];

  describe('a store whose log does not read as weft’s', { timeout: 180_000 }, () => {
    it.each(kinds)('is refused by every command that writes, byte-identical: %s', async (name, sql, where) => {
      const path = damaged(name.replace(/\W+/g, '-'), sql);
      const before = hash(path);
      for (const args of writes()) {
        const r = await weft([...args, '--db', path]);
        expect(r.stderr, args.join(' ')).toMatch(where(damagedRun));
        expect(r.stderr, args.join(' ')).toContain(`the store ${path} cannot be written`);
        expect(r.stderr, args.join(' ')).toMatch(/nothing was changed; .*restore it from a backup/);
        expect(r.stderr).not.toContain(STACK_LINE);
        expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
        expect(r.code, args.join(' ')).toBe(2);
        expect(hash(path), `${args.join(' ')} changed the file`).toBe(before);
      }
      expect(existsSync(`${path}-wal`)).toBe(false);
    });

    it.each(kinds)('still lets read commands read the other runs, saying which run is damaged: %s', async (name, sql, where) => {
      const path = damaged(`read-${name.replace(/\W+/g, '-')}`, sql);
      const before = hash(path);
      for (const args of [['runs'], ['inspect', soundRun], ['events', soundRun]]) {
        const r = await weft([...args, '--db', path]);
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
        expect(r.stderr, args.join(' ')).toMatch(where(damagedRun));
        expect(r.stderr, args.join(' ')).toMatch(/^weft \w+: warning: .*; commands that write refuse this store until it is restored from a backup\n$/);
      }
      const own = await weft(['inspect', damagedRun, '--db', path]);
      expect(own.code).toBe(2);
      expect(own.stderr).toMatch(where(damagedRun));
      expect(hash(path)).toBe(before);
    });
  });
}
