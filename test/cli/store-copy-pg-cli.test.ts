// `weft store copy` between SQLite and PostgreSQL through the real binary (issue 25): a store with
// a finished run and a waiting one goes to a PostgreSQL schema and back to a new SQLite file. The
// events are byte-identical (the same digest at every hop, every column of every table equal
// after the round trip), each run folds the same, and the waiting run finishes on PostgreSQL, run
// by an engine there, its new events numbered on from the copied cursors. A schema that holds runs
// is refused as a target, and an empty one as a source.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../engine/store/open-database.ts';
import { openPgDb } from '../../engine/store/pg/open-pg-store.ts';
import { Store } from '../../engine/store/store.ts';
import { Engine } from '../../engine/runtime/engine.ts';
import { EngineService } from '../../engine/service/engine-service.ts';
import { defaultExecutors } from '../../engine/executors/default-executors.ts';
import { systemClock, systemRandom } from '../../engine/time/clock.ts';
import { failWithoutPgUnderCi, openTestPg, SKIP_PG, pgMissing, type TestPg } from '../fixtures/pg/test-pg.ts';
import { approvalWorkflow, folds, storeWithRuns, tableRows, type CopyJson } from './store-copy-fixture.ts';
import { runWeft, STACK_LINE } from './run-weft.ts';

failWithoutPgUnderCi();

describe.skipIf(SKIP_PG)(SKIP_PG ? `skipped: ${pgMissing() ?? ''}` : 'weft store copy to PostgreSQL and back', () => {
  let pg: TestPg;
  const dir = mkdtempSync(join(tmpdir(), 'weft-store-copy-pg-'));
  beforeAll(async () => {
    pg = await openTestPg();
  });
  afterAll(async () => {
    await pg.close();
  });

  it('round-trips a store event for event, and a waiting run finishes on PostgreSQL', async () => {
    const file = approvalWorkflow(dir);
    const from = join(dir, 'from.db');
    const { waiting } = await storeWithRuns(file, from);
    const schema = (await pg.newSchema()).name;
    const url = `${pg.url}?schema=${schema}`;

    const there = await runWeft(['store', 'copy', from, url, '--json']);
    expect(there.stderr).toBe('');
    expect(there.code).toBe(0);
    const toPg = JSON.parse(there.stdout) as CopyJson & { to: string };
    expect(toPg.to).not.toContain('postgres://');
    const back = join(dir, 'back.db');
    const home = await runWeft(['store', 'copy', url, back, '--json']);
    expect(home.stderr).toBe('');
    expect(home.code).toBe(0);
    const fromPg = JSON.parse(home.stdout) as CopyJson;
    expect(fromPg.events).toEqual(toPg.events);
    expect(fromPg.tables).toEqual(toPg.tables);

    const a = openDatabase(from, { mode: 'read' });
    const b = openDatabase(back, { mode: 'read' });
    const p = openPgDb(pg.url, { schema, create: false });
    try {
      expect(tableRows(b)).toEqual(tableRows(a));
      expect(folds(p)).toEqual(folds(a));
      expect(folds(b)).toEqual(folds(a));
    } finally {
      a.close();
      b.close();
      p.close();
    }

    // The waiting run goes on where it stopped, run by an engine on the PostgreSQL store.
    const db = openPgDb(pg.url, { schema, create: false });
    const store = new Store(db);
    const engine = new Engine({ store, clock: systemClock, random: systemRandom, executors: defaultExecutors() });
    try {
      expect(engine.recover().runs).toBe(1);
      const service = new EngineService(store, engine, dir);
      expect((await service.sendEvent({ name: 'payment.received', key: 'B2' })).status).toBe('delivered');
      await expect.poll(() => service.tasks().map((t) => t.runId)).toContain(waiting);
      await service.decide(waiting, 'review', { action: 'approve' });
      expect(await service.settled(waiting)).toBe('succeeded');
      const cursors = db.prepare('SELECT cursor FROM events WHERE cursor > ? ORDER BY cursor').pluck().all(toPg.events.lastCursor) as number[];
      expect(cursors.length).toBeGreaterThan(0);
      expect(cursors).toEqual(cursors.map((_, i) => toPg.events.lastCursor + 1 + i));
    } finally {
      engine.close();
      db.close();
    }

    // The schema holds runs now: not a target. An empty schema is not a source.
    const again = await runWeft(['store', 'copy', from, url]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/the target store already holds 2 runs; nothing was copied/);
    const empty = `${pg.url}?schema=${(await pg.newSchema()).name}`;
    const none = await runWeft(['store', 'copy', empty, join(dir, 'none.db')]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/holds no Weft store \(its schema is empty\); nothing was changed/);
    expect(none.stderr).not.toContain(STACK_LINE);
  });
});
