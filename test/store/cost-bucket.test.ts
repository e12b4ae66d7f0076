// Where a SQLite store keeps its finished runs' cost per day (engine/store/cost-rollups.ts, schema
// 20): the last day a run spent on goes to the "current day" bucket of the stat_runs row its
// counters write anyway, and moves to a stat_cost_days row only when a run of a later day (or in
// another currency) finishes. At every step the readers (Insights' days, admission's day spend,
// from this connection and a fresh one) and the stored rows agree with the log's attempt events.
// On a real SQLite file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../engine/store/open-database.ts';
import { Store } from '../../engine/store/store.ts';
import type { Db } from '../../engine/store/db.ts';
import { KEPT_COST_DAYS } from '../kept-cost-days.ts';
import { DAY, DAY_MS, moveTo, on, run } from './cost-runs.ts';


const dirs: string[] = [];
const opened: Db[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function freshFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'weft-cost-bucket-'));
  dirs.push(dir);
  return join(dir, 'weft.db');
}

function open(path: string): { db: Db; store: Store } {
  const db = openDatabase(path);
  opened.push(db);
  return { db, store: new Store(db) };
}

/** The rows of stat_cost_days, and each stat_runs row's bucket, as stored (none left at zero). */
function stored(db: Db): { days: unknown[][]; buckets: unknown[][] } {
  return {
    days: db.prepare('SELECT day, succeeded, currency, micros, attempts FROM stat_cost_days WHERE attempts <> 0 ORDER BY day, succeeded, currency').raw().all() as unknown[][],
    buckets: db.prepare('SELECT state, cost_day, cost_currency, cost_micros, cost_attempts FROM stat_runs WHERE cost_attempts <> 0 ORDER BY state').raw().all() as unknown[][],
  };
}

/**
 * Workflow alpha's finished runs' cost per day, outcome and currency as the log's attempt events
 * say (a cost in USD is stored without its currency: stored-cost.ts), against
 * what the store keeps and its reader gives, here and on a fresh connection; and each day's
 * spend for admission (finished runs and those still going) against the log's.
 */
function expectAgreesWithLog(path: string, store: Store, db: Db): void {
  const fromLog = db.prepare(`SELECT e.at / ${DAY_MS} AS day, CASE WHEN r.state = 'succeeded' THEN 1 ELSE 0 END AS succeeded,
      coalesce(json_extract(e.data, '$.meta.cost.currency'), 'USD') AS currency, SUM(CAST(ROUND(json_extract(e.data, '$.meta.cost.amount') * 1000000) AS INTEGER)) AS micros, count(*) AS attempts
    FROM events e JOIN runs r ON r.id = e.run_id WHERE e.type = 'attempt_succeeded' AND r.state IN ('succeeded', 'failed') AND r.workflow_id = 'alpha'
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`).all();
  const kept = db.prepare(`SELECT day, succeeded, currency, sum(micros) AS micros, sum(attempts) AS attempts FROM ${KEPT_COST_DAYS} WHERE workflow_id = 'alpha'
    GROUP BY 1, 2, 3 HAVING sum(attempts) <> 0 ORDER BY 1, 2, 3`).all();
  expect(kept).toEqual(fromLog);
  const fresh = open(path).store;
  for (const s of [store, fresh]) {
    const read = s.workflowRollups().costs.days('alpha').map((d) => ({ day: d.day, succeeded: d.succeeded, currency: d.currency, micros: d.micros, attempts: d.attempts }));
    expect(read).toEqual(fromLog);
  }
  const spentOn = db.prepare(`SELECT e.at / ${DAY_MS} AS day, SUM(CAST(ROUND(json_extract(e.data, '$.meta.cost.amount') * 1000000) AS INTEGER)) AS micros
    FROM events e JOIN runs r ON r.id = e.run_id WHERE e.type = 'attempt_succeeded' AND r.workflow_id = 'alpha' GROUP BY 1`).raw().all() as [number, number][];
  for (const [day, micros] of spentOn) {
    expect(store.spend.on(day, 'alpha').workflow).toBeCloseTo(micros / 1_000_000, 9);
    expect(fresh.spend.on(day, 'alpha').workflow).toBeCloseTo(micros / 1_000_000, 9);
  }
}

describe('the current day\'s cost on the stat_runs row (schema 20)', () => {
  it('keeps the runs of one day in the bucket of their row, writing no stat_cost_days row, split by whether they succeeded', () => {
    const path = freshFile();
    const { db, store } = open(path);
    run(store, 'r1', [{ at: on(DAY), amount: 0.25 }]);
    run(store, 'r2', [{ at: on(DAY, 2_000), amount: 0.5 }, { at: on(DAY, 3_000), amount: 0.125 }]);
    run(store, 'r3', [{ at: on(DAY, 4_000), amount: 1 }], 'failed');
    expect(stored(db)).toEqual({
      days: [],
      buckets: [['failed', DAY, 'USD', 1_000_000, 1], ['succeeded', DAY, 'USD', 875_000, 3]],
    });
    expectAgreesWithLog(path, store, db);
  });

  it('moves the bucket to stat_cost_days when a run of a later day finishes, and the later day takes its place', () => {
    const path = freshFile();
    const { db, store } = open(path);
    run(store, 'r1', [{ at: on(DAY), amount: 0.25 }]);
    run(store, 'r2', [{ at: on(DAY + 1), amount: 0.5 }]);
    expect(stored(db)).toEqual({ days: [[DAY, 1, 'USD', 250_000, 1]], buckets: [['succeeded', DAY + 1, 'USD', 500_000, 1]] });
    run(store, 'r3', [{ at: on(DAY + 1, 2_000), amount: 2 }]);
    expect(stored(db)).toEqual({ days: [[DAY, 1, 'USD', 250_000, 1]], buckets: [['succeeded', DAY + 1, 'USD', 2_500_000, 2]] });
    expectAgreesWithLog(path, store, db);
  });

  it('puts only the last day of a run that spent over midnight in the bucket, and a run whose last day is before the bucket\'s in stat_cost_days', () => {
    const path = freshFile();
    const { db, store } = open(path);
    run(store, 'r1', [{ at: on(DAY, DAY_MS - 1_000), amount: 0.25 }, { at: on(DAY + 1), amount: 0.5 }]);
    expect(stored(db)).toEqual({ days: [[DAY, 1, 'USD', 250_000, 1]], buckets: [['succeeded', DAY + 1, 'USD', 500_000, 1]] });
    // A run that spent on the day before finishes now: its day is a row, the bucket stays.
    run(store, 'late', [{ at: on(DAY, 5_000), amount: 1 }]);
    expect(stored(db)).toEqual({ days: [[DAY, 1, 'USD', 1_250_000, 2]], buckets: [['succeeded', DAY + 1, 'USD', 500_000, 1]] });
    expectAgreesWithLog(path, store, db);
  });

  it('moves the bucket when a run in another currency finishes on its day', () => {
    const path = freshFile();
    const { db, store } = open(path);
    run(store, 'usd', [{ at: on(DAY), amount: 0.25 }]);
    run(store, 'eur', [{ at: on(DAY, 2_000), amount: 0.5, currency: 'EUR' }]);
    expect(stored(db)).toEqual({ days: [[DAY, 1, 'USD', 250_000, 1]], buckets: [['succeeded', DAY, 'EUR', 500_000, 1]] });
    expectAgreesWithLog(path, store, db);
  });

  it('takes a run back out when an operator\'s retry sends it back to running, wherever its cost was, and moves nothing', () => {
    const path = freshFile();
    const { db, store } = open(path);
    run(store, 'old', [{ at: on(DAY), amount: 0.25 }]);
    run(store, 'new', [{ at: on(DAY + 1), amount: 0.5 }]);
    // The run of the bucket's day, and the one already moved to stat_cost_days.
    moveTo(store, 'new', 'running', on(DAY + 1, 9_000));
    expect(stored(db)).toEqual({ days: [[DAY, 1, 'USD', 250_000, 1]], buckets: [] });
    expectAgreesWithLog(path, store, db);
    moveTo(store, 'old', 'running', on(DAY + 1, 9_500));
    expect(stored(db)).toEqual({ days: [], buckets: [] });
    expectAgreesWithLog(path, store, db);
    // Both finish again: the bucket is empty, so the later day takes it and the earlier is a row.
    moveTo(store, 'old', 'failed', on(DAY + 1, 10_000));
    moveTo(store, 'new', 'succeeded', on(DAY + 1, 11_000));
    expect(stored(db)).toEqual({ days: [], buckets: [['failed', DAY, 'USD', 250_000, 1], ['succeeded', DAY + 1, 'USD', 500_000, 1]] });
    expectAgreesWithLog(path, store, db);
  });

  it('keeps each workflow\'s spend apart for admission, from the buckets and the rows', () => {
    const path = freshFile();
    const { db, store } = open(path);
    run(store, 'a1', [{ at: on(DAY), amount: 0.25 }]);
    run(store, 'b1', [{ at: on(DAY), amount: 4 }], 'succeeded', 'beta');
    run(store, 'a2', [{ at: on(DAY + 1), amount: 0.5 }]);
    expect(store.spend.on(DAY, 'alpha')).toEqual({ workflow: 0.25, workspace: 4.25 });
    expect(store.spend.on(DAY + 1, 'beta')).toEqual({ workflow: 0, workspace: 0.5 });
    expect(open(path).store.spend.on(DAY, 'beta')).toEqual({ workflow: 4, workspace: 4.25 });
    expectAgreesWithLog(path, store, db);
  });
});
