// Claiming runs on a shared PostgreSQL store (engine/store/pg/pg-coordination.ts), at the level of
// the coordination: a worker whose own registration went stale (stopped, starved of CPU, or cut
// off by a restart of PostgreSQL) claims nothing, and never claims its own runs again, while a
// live worker takes them all, each once. Found by test/host/pg-torture.test.ts: a stale worker
// holding a batch or more of runs claimed them from itself in its claim loop over and over, never
// yielding to the heartbeat that would have stopped it (a run reached 1,010 claims).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgCoordination } from '../../engine/store/pg/pg-coordination.ts';
import { openPgDb } from '../../engine/store/pg/open-pg-store.ts';
import { failWithoutPgUnderCi, openTestPg, pgMissing, SKIP_PG, type TestPg } from '../fixtures/pg/test-pg.ts';

failWithoutPgUnderCi();

describe.skipIf(SKIP_PG)(SKIP_PG ? `skipped: ${pgMissing() ?? ''}` : 'claiming runs', () => {
  let pg: TestPg;
  beforeAll(async () => {
    pg = await openTestPg();
  });
  afterAll(async () => {
    await pg.close();
  });

  it('a worker whose own registration is stale claims nothing, not even its own runs again', async () => {
    const schema = (await pg.newSchema()).name;
    const db = openPgDb(pg.url, { schema, create: true });
    try {
      const stale = new PgCoordination(db, 'worker', 60_000);
      const live = new PgCoordination(db, 'worker', 60_000);
      stale.register();
      live.register();
      // More runs than one claim takes (the claim loop claims again at once after a full batch).
      const ids = Array.from({ length: 40 }, (_, i) => `r${String(i).padStart(2, '0')}`);
      for (const [i, id] of ids.entries()) {
        db.prepare("INSERT INTO runs (id, workflow_id, version, state, created_at, updated_at) VALUES (?, 'w', 1, 'waiting', ?, ?)").run(id, i, i);
        db.prepare('INSERT INTO run_leases (run_id, owner, claims) VALUES (?, ?, 1)').run(id, stale.workerId);
      }
      db.prepare('UPDATE weft_workers SET heartbeat_at = 0 WHERE id = ?').run(stale.workerId);
      const claims = (): number[] => (db.prepare('SELECT claims FROM run_leases ORDER BY run_id').pluck().all() as number[]).map(Number);

      expect(stale.claim(32)).toEqual([]);
      expect(claims()).toEqual(ids.map(() => 1));
      expect(stale.heartbeat()).toBe(false);

      expect(live.claim(32).sort()).toEqual(ids.slice(0, 32)); // oldest first
      expect(live.claim(32).sort()).toEqual(ids.slice(32));
      expect(live.claim(32)).toEqual([]);
      expect(claims()).toEqual(ids.map(() => 2));
    } finally {
      db.close();
    }
  });
});
