// A SQLite store whose finished runs' cost sits partly in the current day's bucket of stat_runs
// (schema 20, cost-rollups.ts) copied to PostgreSQL (`weft store copy`'s copyStore): PostgreSQL's
// readers give the same days and the same spend for admission, and a run that finishes there goes
// to stat_cost_days (several workers would race to move one bucket), leaving the copied bucket as it
// was and every total right. Real SQLite file, real PostgreSQL server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyStore } from '../../engine/store/copy-store.ts';
import type { Db } from '../../engine/store/db.ts';
import { openDatabase } from '../../engine/store/open-database.ts';
import { openPgDb } from '../../engine/store/pg/open-pg-store.ts';
import { Store } from '../../engine/store/store.ts';
import { failWithoutPgUnderCi, openTestPg, pgMissing, SKIP_PG, type TestPg } from '../fixtures/pg/test-pg.ts';
import { DAY, on, run } from './cost-runs.ts';

failWithoutPgUnderCi();

describe.skipIf(SKIP_PG)(SKIP_PG ? `skipped: ${pgMissing() ?? ''}` : 'the cost bucket of a SQLite store on PostgreSQL', () => {
  let pg: TestPg;
  const dir = mkdtempSync(join(tmpdir(), 'weft-pg-cost-bucket-'));
  const opened: Db[] = [];
  beforeAll(async () => {
    pg = await openTestPg();
  });
  afterAll(async () => {
    for (const db of opened) db.close();
    await pg?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Workflow alpha's days as Insights reads them, and the spend of DAY and DAY + 1 as admission does. */
  const readings = (store: Store): unknown => ({
    days: store.workflowRollups().costs.days('alpha'),
    spend: [store.spend.on(DAY, 'alpha'), store.spend.on(DAY + 1, 'alpha')],
  });
  /** A row of days(): one day's cost of the runs that succeeded (or not), in USD, without tokens. */
  const costDay = (day: number, succeeded: 0 | 1, micros: number, attempts: number): unknown => ({ day, succeeded, currency: 'USD', micros, inputTokens: 0, outputTokens: 0, attempts });
  const bucketsOf = (db: Db): unknown[][] =>
    db.prepare('SELECT state, cost_day, cost_currency, cost_micros, cost_attempts FROM stat_runs WHERE cost_attempts <> 0 ORDER BY state').raw().all() as unknown[][];

  it('reads the copied buckets as SQLite does, and a run finished on PostgreSQL adds a row and leaves them as they are', async () => {
    const sqlite = openDatabase(join(dir, 'weft.db'));
    opened.push(sqlite);
    const local = new Store(sqlite);
    run(local, 'r1', [{ at: on(DAY), amount: 0.25 }]);
    run(local, 'r2', [{ at: on(DAY + 1), amount: 0.5 }]);
    run(local, 'r3', [{ at: on(DAY + 1, 2_000), amount: 1 }], 'failed');
    const buckets = [['failed', DAY + 1, 'USD', 1_000_000, 1], ['succeeded', DAY + 1, 'USD', 500_000, 1]];
    expect(bucketsOf(sqlite)).toEqual(buckets);

    const { name: schema } = await pg.newSchema();
    const remote = openPgDb(pg.url, { schema });
    opened.push(remote);
    copyStore(sqlite, remote);
    const pgStore = new Store(remote);
    expect(bucketsOf(remote)).toEqual(buckets);
    const before = readings(local);
    expect(before).toEqual({
      days: [costDay(DAY, 1, 250_000, 1), costDay(DAY + 1, 0, 1_000_000, 1), costDay(DAY + 1, 1, 500_000, 1)],
      spend: [{ workflow: 0.25, workspace: 0.25 }, { workflow: 1.5, workspace: 1.5 }],
    });
    expect(readings(pgStore)).toEqual(before);

    // A run of DAY + 1 finishes on PostgreSQL: its cost is a stat_cost_days row, the bucket stays.
    run(pgStore, 'r4', [{ at: on(DAY + 1, 3_000), amount: 2 }]);
    expect(bucketsOf(remote)).toEqual(buckets);
    expect(remote.prepare('SELECT day, succeeded, micros, attempts FROM stat_cost_days ORDER BY day, succeeded').raw().all()).toEqual([
      [DAY, 1, 250_000, 1],
      [DAY + 1, 1, 2_000_000, 1],
    ]);
    const after = readings(new Store(remote));
    expect(after).toEqual({
      days: [costDay(DAY, 1, 250_000, 1), costDay(DAY + 1, 0, 1_000_000, 1), costDay(DAY + 1, 1, 2_500_000, 2)],
      spend: [{ workflow: 0.25, workspace: 0.25 }, { workflow: 3.5, workspace: 3.5 }],
    });
    expect(readings(pgStore)).toEqual(after);
  });
});
