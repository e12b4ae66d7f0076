// The day's spend as admission reads it (engine/store/day-spend.ts, DaySpend.on) is kept between
// reads, and must never go stale: this store's commits add to it as they are written, a commit
// that fails adds nothing, and another connection's commit (another engine or CLI process on the
// same file) is seen from the next turn of the event loop; a running run's spend is read from its events, a finished
// run's from the day's cost rows, and migration 18 moves a store of schema 17 to that. On real SQLite files.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../engine/store/open-database.ts';
import { Store } from '../../engine/store/store.ts';
import type { Db } from '../../engine/store/db.ts';
import { RUN_SPEND_SQL, SPEND_BY_DAY_SQL } from '../../engine/store/day-spend.ts';
import { COST_ROLLUPS_SQL } from '../../engine/store/cost-rollups.ts';
import { SCHEMA_VERSION } from '../../engine/store/migrations.ts';
import { Lease } from '../../engine/store/lease.ts';
import { DROP_COST_BUCKET_SQL, KEPT_COST_DAYS } from '../kept-cost-days.ts';

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

/** Lets the event loop turn: the next admission reads SQLite's data_version again. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

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
  it('adds this store\'s commits, forgets a failed one, and sees another connection\'s from the next turn of the event loop', async () => {
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

    // Another process's commit on the same file: the starts of one turn are admitted as at one moment (the first's), the next turn sees it.
    spend(b.store, 'r2', 'beta', 0.5, at);
    expect(a.store.spend.on(day, 'alpha')).toEqual({ workflow: 0.25, workspace: 0.25 });
    await nextTurn();
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

  it('under the engine lease, reads no data_version: only the lease holder writes runs; a lease taken over makes it look again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-day-spend-lease-'));
    dirs.push(dir);
    const path = join(dir, 'weft.db');
    const a = open(path);
    const b = open(path);
    let now = 1_000_000;
    const lease = new Lease(a.db, 'engine a', () => now);
    lease.acquire();
    a.store.useLease(lease);
    const day = 20_000;
    const at = day * 86_400_000 + 1_000;
    spend(a.store, 'r1', 'alpha', 0.25, at);
    expect(a.store.spend.on(day, 'alpha')).toEqual({ workflow: 0.25, workspace: 0.25 });

    // What SQLite's data_version would say is never asked for while the lease is held.
    const asked: string[] = [];
    const prepare = a.db.prepare.bind(a.db);
    a.db.prepare = ((sql: string) => {
      asked.push(sql);
      return prepare(sql);
    }) as typeof a.db.prepare;
    await nextTurn();
    spend(a.store, 'r2', 'alpha', 0.5, at);
    expect(a.store.spend.on(day, 'alpha')).toEqual({ workflow: 0.75, workspace: 0.75 });
    expect(asked.filter((sql) => sql.includes('data_version'))).toEqual([]);

    // Another engine takes the lease over (this process was stopped past its staleness): the next
    // heartbeat finds it gone, and admission reads what the other wrote from then on.
    // (the row as Lease.acquire in that other process writes it: its owner, pid and heartbeat).
    b.db.prepare("UPDATE lease SET owner = 'engine b', pid = ?, heartbeat_at = ? WHERE id = 1").run(process.pid + 1_000_000, now + 60_000);
    spend(b.store, 'r3', 'beta', 1, at);
    now += 5_000;
    lease.heartbeat();
    expect(lease.held).toBe(false);
    await nextTurn();
    expect(a.store.spend.on(day, 'alpha')).toEqual({ workflow: 0.75, workspace: 1.75 });
  });
});

/** The run's state changes to `state`: its event, and its row as the engine projects it in the same commit. */
function moveTo(store: Store, runId: string, state: 'running' | 'succeeded' | 'failed', at: number): void {
  store.append({ runId, type: 'run_state_changed', at, data: { state } });
  store.setRunProjection({ id: runId, workflowId: 'alpha', version: 1, state, inputRevision: 1, createdAt: at, updatedAt: at });
  store.flush();
}

describe('where a run\'s spend is kept', () => {
  it('read from its attempt events while it runs, in the day\'s cost rows with its rollup once it finishes: the sum always equals the log\'s', () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-run-spend-'));
    dirs.push(dir);
    const { db, store } = open(join(dir, 'weft.db'));
    const day = 20_000;
    const at = day * 86_400_000 + 86_000_000; // 6 min 40 s before midnight
    const rows = () => db.prepare(`SELECT day, workflow_id, sum(micros) FROM ${KEPT_COST_DAYS} GROUP BY day, workflow_id HAVING sum(attempts) <> 0 ORDER BY day, workflow_id`).raw().all();
    // What the attempt events say: the truth every state below must add up to.
    const fromLog = () => db.prepare(`SELECT e.at / 86400000 AS day, r.workflow_id, SUM(CAST(ROUND(json_extract(e.data, '$.meta.cost.amount') * 1000000) AS INTEGER)) AS micros
      FROM events e JOIN runs r ON r.id = e.run_id WHERE e.type = 'attempt_succeeded' GROUP BY 1, 2 ORDER BY 1, 2`).raw().all();
    const fresh = () => open(join(dir, 'weft.db')).store; // another connection: reads what is stored, nothing kept

    spend(store, 'r1', 'alpha', 0.25, at); // run_created 1, attempt 2-3
    spend(store, 'r1', 'alpha', 0.5, at + 1_000, 2); // 4-5
    expect(rows()).toEqual([]);
    expect(store.spend.on(day, 'alpha')).toEqual({ workflow: 0.75, workspace: 0.75 });
    expect(fresh().spend.on(day, 'alpha')).toEqual({ workflow: 0.75, workspace: 0.75 });

    // Past midnight: each day counts what was spent on it.
    spend(store, 'r1', 'alpha', 2, at + 600_000, 3); // 6-7
    expect(rows()).toEqual([]);
    for (const s of [store, fresh()]) {
      expect(s.spend.on(day, 'alpha').workflow).toBe(0.75);
      expect(s.spend.on(day + 1, 'alpha').workflow).toBe(2);
    }

    // The run finishes: its spend is settled per day with its rollup, equal to the log's, and no longer read from its events.
    moveTo(store, 'r1', 'succeeded', at + 601_000); // 8
    expect(rows()).toEqual([[day, 'alpha', 750_000], [day + 1, 'alpha', 2_000_000]]);
    expect(rows()).toEqual(fromLog());
    expect(store.spend.on(day + 1, 'alpha')).toEqual({ workflow: 2, workspace: 2 });
    expect(fresh().spend.on(day + 1, 'alpha')).toEqual({ workflow: 2, workspace: 2 });
    expect(fresh().spend.on(day, 'alpha')).toEqual({ workflow: 0.75, workspace: 0.75 });

    // An operator's retry takes it back to running: its rollup goes, so its spend is read from its events again.
    moveTo(store, 'r1', 'running', at + 700_000); // 9
    expect(rows()).toEqual([]);
    expect(fresh().spend.on(day, 'alpha').workflow).toBe(0.75);
    spend(store, 'r1', 'alpha', 1, at + 700_000, 4); // 10-11
    expect(store.spend.on(day + 1, 'alpha').workflow).toBe(3);
    expect(fresh().spend.on(day + 1, 'alpha').workflow).toBe(3);
    moveTo(store, 'r1', 'failed', at + 701_000);
    expect(rows()).toEqual([[day, 'alpha', 750_000], [day + 1, 'alpha', 3_000_000]]);
    expect(rows()).toEqual(fromLog());
    expect(fresh().spend.on(day + 1, 'alpha')).toEqual({ workflow: 3, workspace: 3 });
  });
});

describe('migration 18', () => {
  it('makes the day\'s cost rows from the finished runs\' rollups, drops the tables and mark before them, and the day\'s total stays the log\'s', () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-spend-18-'));
    dirs.push(dir);
    const path = join(dir, 'weft.db');
    const day = 20_000;
    const at = day * 86_400_000 + 1_000;
    const first = open(path);
    spend(first.store, 'done', 'alpha', 0.25, at);
    first.store.append({ runId: 'done', type: 'run_state_changed', at, data: { state: 'succeeded' } });
    first.store.setRunProjection({ id: 'done', workflowId: 'alpha', version: 1, state: 'succeeded', inputRevision: 1, createdAt: at, updatedAt: at });
    first.store.flush();
    spend(first.store, 'going', 'alpha', 0.5, at);
    // As a store of schema 17 was: cost per step and day (14), spend per day (15, rebuilt by 17) and the mark of a running run (17).
    const columns = ['cost_micros', 'input_tokens', 'output_tokens', 'cost_attempts'].map((c) => `ALTER TABLE stat_steps DROP COLUMN ${c};`).join(' ');
    first.db.exec(`DROP TABLE stat_cost_days; ${columns} ${DROP_COST_BUCKET_SQL} ${COST_ROLLUPS_SQL}; ${SPEND_BY_DAY_SQL}; ${RUN_SPEND_SQL}; PRAGMA user_version = 17`);
    expect(first.db.prepare('SELECT id, spend_day FROM runs ORDER BY id').raw().all()).toEqual([['done', null], ['going', day]]);
    opened.splice(opened.indexOf(first.db), 1);
    first.db.close();

    const upgraded = open(path);
    expect(upgraded.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    const objects = upgraded.db.prepare("SELECT name FROM sqlite_master WHERE name IN ('stat_costs', 'spend_by_day', 'runs_spending')").pluck().all();
    expect(objects).toEqual([]);
    expect(upgraded.db.prepare("SELECT count(*) FROM pragma_table_info('runs') WHERE name = 'spend_day'").pluck().get()).toBe(0);
    expect(upgraded.db.prepare('SELECT day, workflow_id, micros, attempts FROM stat_cost_days').raw().all()).toEqual([[day, 'alpha', 250_000, 1]]);
    expect(upgraded.db.prepare("SELECT step_id, cost_micros, cost_attempts FROM stat_steps WHERE workflow_id = 'alpha'").raw().all()).toEqual([['call', 250_000, 1]]);
    expect(upgraded.store.spend.on(day, 'alpha')).toEqual({ workflow: 0.75, workspace: 0.75 });
    // The running run finishes: nothing is counted twice.
    upgraded.store.append({ runId: 'going', type: 'run_state_changed', at, data: { state: 'succeeded' } });
    upgraded.store.setRunProjection({ id: 'going', workflowId: 'alpha', version: 1, state: 'succeeded', inputRevision: 1, createdAt: at, updatedAt: at });
    upgraded.store.flush();
    expect(upgraded.db.prepare(`SELECT day, workflow_id, sum(micros) FROM ${KEPT_COST_DAYS} GROUP BY 1, 2`).raw().all()).toEqual([[day, 'alpha', 750_000]]);
    expect(upgraded.store.spend.on(day, 'alpha')).toEqual({ workflow: 0.75, workspace: 0.75 });
  });
});
