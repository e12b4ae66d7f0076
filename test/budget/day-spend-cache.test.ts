// The day's spend as admission reads it (engine/store/day-spend.ts, DaySpend.on) is kept between
// reads, and must never go stale: this store's commits add to it as they are written, a commit
// that fails adds nothing, and another connection's commit (another engine or CLI process on the
// same file) is seen at the next read; a running run's spend is read from its events, a finished
// run's from the day's rows, and migration 17 moves a store of schema 16 to that. On real SQLite files.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../engine/store/open-database.ts';
import { Store } from '../../engine/store/store.ts';
import type { Db } from '../../engine/store/db.ts';
import { SPEND_BY_DAY_SQL } from '../../engine/store/day-spend.ts';
import { SCHEMA_VERSION } from '../../engine/store/migrations.ts';

const dirs: string[] = [];
const opened: { close(): void }[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function open(path: string): { db: Db; store: Store } {
  const db = openDatabase(path);
  opened.push(db);
  return { db, store: new Store(db) };
}

/** Run `runId` of `workflowId` with one attempt that cost `amount`, at `at` (ms), appended and flushed. */
function spend(store: Store, runId: string, workflowId: string, amount: number, at: number, attempt = 1): void {
  if (attempt === 1) {
    store.newRun(runId);
    store.append({ runId, type: 'run_created', at, data: { workflowId, version: 1, definitionHash: 'h', workspaceDir: '.', input: {} } });
    store.setRunProjection({ id: runId, workflowId, version: 1, state: 'running', inputRevision: 1, createdAt: at, updatedAt: at });
    store.flush();
  }
  store.append({ runId, type: 'attempt_started', at, step: 'call', activation: 1, attempt, data: { inputHash: 'i', input: {}, variant: null, effect: 'external' } });
  store.append({ runId, type: 'attempt_succeeded', at, step: 'call', activation: 1, attempt, data: { output: {}, evidenceId: 'e', covers: { inputHash: 'i', definitionVersion: 1, inputRevision: 0 }, meta: { cost: { amount, currency: 'USD', basis: 'declared' } } } });
  store.flush();
}

describe('the day\'s spend kept between admissions', () => {
  it('adds this store\'s commits, forgets a failed one, and sees another connection\'s', () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-day-spend-cache-'));
    dirs.push(dir);
    const path = join(dir, 'weft.db');
    const a = open(path);
    const b = open(path);
    const day = 20_000;
    const at = day * 86_400_000 + 1_000;
    expect(a.store.spend.on(day, 'alpha')).toEqual({ workflow: 0, workspace: 0 });

    spend(a.store, 'r1', 'alpha', 0.25, at);
    expect(a.store.spend.on(day, 'alpha')).toEqual({ workflow: 0.25, workspace: 0.25 });

    // Another process's commit on the same file.
    spend(b.store, 'r2', 'beta', 0.5, at);
    expect(a.store.spend.on(day, 'alpha')).toEqual({ workflow: 0.25, workspace: 0.75 });
    expect(a.store.spend.on(day, 'beta')).toEqual({ workflow: 0.5, workspace: 0.75 });

    // A commit of this store that SQLite refuses: its cost is in neither the table nor the answer.
    const raw = new Database(path);
    opened.push(raw);
    raw.exec("CREATE TRIGGER refuse BEFORE INSERT ON events WHEN NEW.type = 'attempt_succeeded' BEGIN SELECT RAISE(ABORT, 'refused by test'); END");
    expect(() => spend(a.store, 'r3', 'alpha', 1, at)).toThrow(/refused by test/);
    expect(a.store.spend.on(day, 'alpha')).toEqual({ workflow: 0.25, workspace: 0.75 });
    raw.exec('DROP TRIGGER refuse');

    // Another day is read from the table, not from the day kept.
    spend(a.store, 'r4', 'alpha', 2, at + 86_400_000);
    expect(a.store.spend.on(day + 1, 'alpha')).toEqual({ workflow: 2, workspace: 2 });
    expect(a.store.spend.on(day, 'alpha')).toEqual({ workflow: 0.25, workspace: 0.75 });
    expect(b.store.spend.on(day + 1, 'beta')).toEqual({ workflow: 0, workspace: 2 });
  });
});

describe('where a run\'s spend is kept', () => {
  it('read from its attempt events while it runs (its row marked once), on the day\'s rows with its rollup once it finishes: the sum always equals the log\'s', () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-run-spend-'));
    dirs.push(dir);
    const { db, store } = open(join(dir, 'weft.db'));
    const day = 20_000;
    const at = day * 86_400_000 + 86_000_000; // 6 min 40 s before midnight
    const kept = () => ({
      days: db.prepare('SELECT day, workflow_id, micros FROM spend_by_day ORDER BY day, workflow_id').raw().all(),
      runs: db.prepare('SELECT id, spend_day FROM runs ORDER BY id').raw().all(),
    });
    // What migration 15 builds from the log: the truth every state above must add up to.
    const fromLog = () => db.prepare(`SELECT e.at / 86400000 AS day, r.workflow_id, SUM(CAST(ROUND(json_extract(e.data, '$.meta.cost.amount') * 1000000) AS INTEGER)) AS micros
      FROM events e JOIN runs r ON r.id = e.run_id WHERE e.type = 'attempt_succeeded' GROUP BY 1, 2 ORDER BY 1, 2`).raw().all();
    const fresh = () => open(join(dir, 'weft.db')).store; // another connection: reads what is stored, nothing kept

    spend(store, 'r1', 'alpha', 0.25, at); // run_created 1, attempt 2-3
    spend(store, 'r1', 'alpha', 0.5, at + 1_000, 2); // 4-5
    expect(kept()).toEqual({ days: [], runs: [['r1', day]] });
    expect(store.spend.on(day, 'alpha')).toEqual({ workflow: 0.75, workspace: 0.75 });
    expect(fresh().spend.on(day, 'alpha')).toEqual({ workflow: 0.75, workspace: 0.75 });

    // Past midnight: each day counts what was spent on it; the mark stays.
    spend(store, 'r1', 'alpha', 2, at + 600_000, 3); // 6-7
    expect(kept()).toEqual({ days: [], runs: [['r1', day]] });
    for (const s of [store, fresh()]) {
      expect(s.spend.on(day, 'alpha').workflow).toBe(0.75);
      expect(s.spend.on(day + 1, 'alpha').workflow).toBe(2);
    }

    // The run finishes: its spend is settled per day, equal to the log's, and the mark goes.
    store.append({ runId: 'r1', type: 'run_state_changed', at: at + 601_000, data: { state: 'succeeded' } }); // 8
    store.flush();
    expect(kept()).toEqual({ days: [[day, 'alpha', 750_000], [day + 1, 'alpha', 2_000_000]], runs: [['r1', null]] });
    expect(kept().days).toEqual(fromLog());
    expect(fresh().spend.on(day + 1, 'alpha')).toEqual({ workflow: 2, workspace: 2 });

    // An operator's retry takes it back to running: its rollup goes, so its spend is read from its events again (marked from its first day).
    store.append({ runId: 'r1', type: 'run_state_changed', at: at + 700_000, data: { state: 'running' } }); // 9
    store.flush();
    expect(kept()).toEqual({ days: [[day, 'alpha', 0], [day + 1, 'alpha', 0]], runs: [['r1', day]] });
    expect(fresh().spend.on(day, 'alpha').workflow).toBe(0.75);
    spend(store, 'r1', 'alpha', 1, at + 700_000, 4); // 10-11
    expect(kept().runs).toEqual([['r1', day]]);
    expect(store.spend.on(day + 1, 'alpha').workflow).toBe(3);
    expect(fresh().spend.on(day + 1, 'alpha').workflow).toBe(3);
    store.append({ runId: 'r1', type: 'run_state_changed', at: at + 701_000, data: { state: 'failed' } });
    store.flush();
    expect(kept()).toEqual({ days: [[day, 'alpha', 750_000], [day + 1, 'alpha', 3_000_000]], runs: [['r1', null]] });
    expect(kept().days).toEqual(fromLog());
  });
});

describe('migration 17', () => {
  it('keeps in spend_by_day only what finished runs spent, and marks a running run that has spent: the day\'s total is the log\'s', () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-spend-17-'));
    dirs.push(dir);
    const path = join(dir, 'weft.db');
    const day = 20_000;
    const at = day * 86_400_000 + 1_000;
    const first = open(path);
    spend(first.store, 'done', 'alpha', 0.25, at);
    first.store.append({ runId: 'done', type: 'run_state_changed', at, data: { state: 'succeeded' } });
    first.store.flush();
    spend(first.store, 'going', 'alpha', 0.5, at);
    // As a store of schema 16 was: spend_by_day held every run's spend, running ones' too, and runs had no mark.
    first.db.exec(`DROP TABLE spend_by_day; ${SPEND_BY_DAY_SQL}; DROP INDEX runs_spending; ALTER TABLE runs DROP COLUMN spend_day; PRAGMA user_version = 16`);
    expect(first.db.prepare('SELECT day, workflow_id, micros FROM spend_by_day').raw().all()).toEqual([[day, 'alpha', 750_000]]);
    opened.splice(opened.indexOf(first.db), 1);
    first.db.close();

    const upgraded = open(path);
    expect(upgraded.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(upgraded.db.prepare('SELECT day, workflow_id, micros FROM spend_by_day').raw().all()).toEqual([[day, 'alpha', 250_000]]);
    expect(upgraded.db.prepare('SELECT id, spend_day FROM runs ORDER BY id').raw().all()).toEqual([['done', null], ['going', day]]);
    expect(upgraded.store.spend.on(day, 'alpha')).toEqual({ workflow: 0.75, workspace: 0.75 });
    // The running run finishes: nothing is counted twice.
    upgraded.store.append({ runId: 'going', type: 'run_state_changed', at, data: { state: 'succeeded' } });
    upgraded.store.flush();
    expect(upgraded.db.prepare('SELECT day, workflow_id, micros FROM spend_by_day').raw().all()).toEqual([[day, 'alpha', 750_000]]);
    expect(upgraded.store.spend.on(day, 'alpha')).toEqual({ workflow: 0.75, workspace: 0.75 });
  });
});
