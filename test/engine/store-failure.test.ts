// A store that fails its writes (a seam, like engine/scenario/crashable-store.ts): the engine
// stops for good and everyone waiting on it hears the error, instead of waiting forever. The CLI
// side, on a real full disk, is test/cli/store-failure-cli.test.ts.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { defaultExecutors } from '../../engine/executors/default-executors.ts';
import { systemClock, systemRandom } from '../../engine/time/clock.ts';
import { Engine } from '../../engine/runtime/engine.ts';
import { openDatabase } from '../../engine/store/open-database.ts';
import type { Db } from '../../engine/store/db.ts';
import { Store } from '../../engine/store/store.ts';
import { StoreError } from '../../engine/store/store-error.ts';
import { storeFailure } from '../../engine/store/store-failure.ts';
import { parseWorkflow } from './harness.ts';
import { WAIT_BOUND_MS } from '../wait-until.ts';

/** Commits until `failAt` flushes have been made; then every flush throws SQLite's full-disk error. */
class FailingStore extends Store {
  private flushes = 0;
  constructor(db: Db, private readonly failAt: number) {
    super(db);
  }
  override flush(durable = false): void {
    if (this.hasPending && ++this.flushes > this.failAt) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    super.flush(durable);
  }
}

const workflow = parseWorkflow({
  format: 'weft/v1', id: 'holds', version: 1, name: 'holds',
  steps: [
    { id: 'hold', kind: 'wait', config: { durationMs: 3_600_000 } },
    { id: 'ask', kind: 'human', config: { task: 'approve', title: 'OK?' }, deadlineMs: 86_400_000 },
    { id: 'after', kind: 'join', config: { mode: 'all' } },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'a', from: 'hold', to: 'after' }, { id: 'b', from: 'ask', to: 'after' }, { id: 'c', from: 'after', to: 'done' }],
});

let db: Db | undefined;
let engine: Engine | undefined;
afterEach(() => {
  engine?.close();
  db?.close();
});

/** Rejects with "still waiting" if `p` has not settled within `ms` (bounds a hang; never the expected path). */
const within = <T,>(p: Promise<T>, ms = WAIT_BOUND_MS): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error('still waiting')), ms)))]).finally(() => clearTimeout(timer));
};

function start(failAt: number): { engine: Engine; runId: string; fatal: unknown[] } {
  db = openDatabase(join(mkdtempSync(join(tmpdir(), 'weft-store-failure-')), 'weft.db'));
  const store = new FailingStore(db, failAt);
  const fatal: unknown[] = [];
  engine = new Engine({ store, clock: systemClock, random: systemRandom, executors: defaultExecutors(), onFatal: (e) => fatal.push(e) });
  const runId = engine.startRun({ workflow, definitionHash: store.saveDefinition(workflow, Date.now()), input: {}, workspaceDir: '.' });
  return { engine, runId, fatal };
}

it('a failed commit with a timer armed rejects settled() with the store error, once', async () => {
  const { engine: e, runId, fatal } = start(0);
  await expect(within(e.settled(runId))).rejects.toThrow('database or disk is full');
  await expect(within(e.settled(runId))).rejects.toThrow('database or disk is full');
  expect(fatal).toHaveLength(1);
  expect(e.idle).toBe(true);
});

it('an operator action waiting for its tick hears the failure', async () => {
  const { engine: e, runId } = start(1);
  await within(e.settled(runId)); // waiting: timer and task; the first commit is written
  await expect(within(e.cancelRun(runId, 'tester', 'stop'))).rejects.toThrow('database or disk is full');
});

it('a drain does not wait on an engine the store stopped', async () => {
  const { engine: e, runId } = start(0);
  await expect(within(e.settled(runId))).rejects.toThrow();
  await expect(within(e.drain())).resolves.toBeUndefined();
});

const sqliteError = (code: string, message: string): Error => Object.assign(new Error(message), { code });

it.each([
  // [code, message, phase, expected]
  ['SQLITE_FULL', 'database or disk is full', 'run', /^cannot write the store \/data\/weft\.db: the disk is full \(SQLite: database or disk is full, SQLITE_FULL\); free some space, then run `weft resume` to continue$/],
  ['SQLITE_FULL', 'database or disk is full', 'open', /the disk is full .*; free some space and try again$/],
  ['SQLITE_CORRUPT', 'database disk image is malformed', 'run', /^the store \/data\/weft\.db is damaged \(SQLite: .*\); check it with: sqlite3 \/data\/weft\.db "PRAGMA integrity_check", and restore it from a backup$/],
  ['SQLITE_NOTADB', 'file is not a database', 'open', /^\/data\/weft\.db is not a Weft store \(not an SQLite database\)/],
  // Mid-run, a page SQLite no longer reads as a database is damage, not someone else's file.
  ['SQLITE_NOTADB', 'file is not a database', 'run', /is damaged .*PRAGMA integrity_check/],
  ['SQLITE_IOERR_WRITE', 'disk I/O error', 'run', /the disk reported an I\/O error \(SQLite: disk I\/O error, SQLITE_IOERR_WRITE\)/],
  ['SQLITE_READONLY', 'attempt to write a readonly database', 'run', /^cannot write the store .*; check that the file and its folder are writable by you, then run `weft resume`/],
  ['SQLITE_CANTOPEN', 'unable to open database file', 'read', /^cannot read the store .*: to read a store, SQLite needs its folder writable/],
  ['SQLITE_BUSY', 'database is locked', 'run', /is busy: another process holds it/],
] as const)('describes %s (%s) in one line naming the store, when %s', (code, message, phase, expected) => {
  const failure = storeFailure('/data/weft.db', sqliteError(code, message), phase);
  expect(failure?.message).toMatch(expected);
  expect(failure?.message).not.toContain('\n');
});

it('leaves errors that are not SQLite\'s to be reported as bugs, and store errors as they are', () => {
  expect(storeFailure('/data/weft.db', new TypeError('x is undefined'), 'run')).toBeUndefined();
  const known = new StoreError('unknown-run', 'no run "x"');
  expect(storeFailure('/data/weft.db', known, 'run')).toBe(known);
});
