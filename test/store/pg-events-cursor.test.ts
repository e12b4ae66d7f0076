// The events cursor on PostgreSQL (pg-schema.ts): numbered by a trigger from log_head as SQLite's
// AUTOINCREMENT numbers it, in commit order with no hole, also with two writers at once; a store
// copy's given cursors move the head; and the set of event types is kept as SQLite's triggers keep
// it. Real clients on a real server; the process lane runs it (it starts a PostgreSQL cluster).
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePg } from '../../engine/store/pg/pg-schema.ts';
import { failWithoutPgUnderCi, openTestPg, pgMissing, SKIP_PG, type TestPg } from '../fixtures/pg/test-pg.ts';
import { waitUntil } from '../wait-until.ts';

/** An INSERT as the store writes one: every column but the cursor. */
const INSERT = "INSERT INTO events (run_id, seq, at, type, data) VALUES ($1, $2, 0, $3, '{}') RETURNING cursor";

failWithoutPgUnderCi();

describe.skipIf(SKIP_PG)(SKIP_PG ? `skipped: ${pgMissing() ?? ''}` : 'the events cursor on PostgreSQL', () => {
  let pg: TestPg;
  beforeAll(async () => {
    pg = await openTestPg();
  });
  afterAll(async () => {
    await pg?.close();
  });

  async function store(): Promise<pg.Pool> {
    const { pool } = await pg.newSchema();
    await migratePg(pool);
    return pool;
  }

  const cursors = async (pool: pg.Pool): Promise<{ run_id: string; seq: number; cursor: number }[]> =>
    (await pool.query<{ run_id: string; seq: number; cursor: number }>('SELECT run_id, seq, cursor FROM events ORDER BY cursor')).rows;

  it('numbers two concurrent writers in commit order with no hole: the second waits for the first to commit', async () => {
    const pool = await store();
    const a = await pool.connect();
    const b = await pool.connect();
    try {
      await a.query('BEGIN');
      await b.query('BEGIN');
      await a.query(INSERT, ['ra', 1, 'run_created']);
      const { rows: pidRows } = await b.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const bPid = pidRows[0]?.pid;
      // b's insert waits on log_head's row, which a holds until it ends (a asks: the pool has 2 clients).
      const bInsert = b.query(INSERT, ['rb', 1, 'run_created']);
      await waitUntil(async () => {
        const { rows } = await a.query<{ waiting: boolean }>("SELECT wait_event_type = 'Lock' AS waiting FROM pg_stat_activity WHERE pid = $1", [bPid]);
        return rows[0]?.waiting === true;
      }, "b's insert waits for a's lock on log_head");
      await a.query(INSERT, ['ra', 2, 'run_state_changed']);
      await a.query('COMMIT');
      expect((await bInsert).rows).toEqual([{ cursor: 3 }]);
      await b.query('COMMIT');
    } finally {
      a.release();
      b.release();
    }
    expect(await cursors(pool)).toEqual([
      { run_id: 'ra', seq: 1, cursor: 1 },
      { run_id: 'ra', seq: 2, cursor: 2 },
      { run_id: 'rb', seq: 1, cursor: 3 },
    ]);
  });

  it('gives the numbers of a rolled-back insert back: the next commit leaves no hole', async () => {
    const pool = await store();
    await pool.query(INSERT, ['r1', 1, 'run_created']);
    const c = await pool.connect();
    try {
      await c.query('BEGIN');
      expect((await c.query(INSERT, ['r2', 1, 'run_created'])).rows).toEqual([{ cursor: 2 }]);
      await c.query('ROLLBACK');
    } finally {
      c.release();
    }
    await pool.query(`${INSERT.replace(' RETURNING cursor', '')}, ($4, $5, 0, $6, '{}')`, ['r3', 1, 'run_created', 'r3', 2, 'run_state_changed']);
    expect((await cursors(pool)).map((r) => r.cursor)).toEqual([1, 2, 3]);
    expect((await pool.query('SELECT last FROM log_head')).rows).toEqual([{ last: 3 }]);
  });

  it('keeps a cursor an INSERT gives (a store copy), and numbers the next event after the highest', async () => {
    const pool = await store();
    await pool.query("INSERT INTO events (cursor, run_id, seq, at, type, data) VALUES (7, 'r', 1, 0, 'run_created', '{}'), (5, 'q', 1, 0, 'run_created', '{}')");
    expect((await pool.query('SELECT last FROM log_head')).rows).toEqual([{ last: 7 }]);
    expect((await pool.query(INSERT, ['r', 2, 'run_state_changed'])).rows).toEqual([{ cursor: 8 }]);
  });

  it('keeps the set of event types of the log, on insert and on a change of type, as SQLite\'s triggers do', async () => {
    const pool = await store();
    await pool.query(`${INSERT.replace(' RETURNING cursor', '')}, ($4, $5, 0, $6, '{}'), ($7, $8, 0, $9, '{}')`, ['r', 1, 'run_created', 'r', 2, 'step_started', 'r', 3, 'step_started']);
    const types = async (): Promise<string[]> => (await pool.query<{ type: string }>('SELECT type FROM event_types ORDER BY type')).rows.map((r) => r.type);
    expect(await types()).toEqual(['run_created', 'step_started']);
    await pool.query("UPDATE events SET type = 'made_up' WHERE seq = 3");
    expect(await types()).toEqual(['made_up', 'run_created', 'step_started']);
  });
});
