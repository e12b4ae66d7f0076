// translateSql (engine/store/pg/pg-dialect.ts): what each rewrite means, checked on the same rows
// in a real SQLite store and a real PostgreSQL one (the statement as the store writes it on
// SQLite, its translation on PostgreSQL: the same answer), and the text rules (placeholders,
// literals left alone, refusals that name the statement). The process lane runs it (it starts a
// PostgreSQL cluster); the text rules need none.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqliteDb as Db } from '../../engine/store/db.ts';
import { openDatabase } from '../../engine/store/open-database.ts';
import { parseInt8 } from '../../engine/store/pg/pg-connection.ts';
import { translateSql, UntranslatableSql } from '../../engine/store/pg/pg-dialect.ts';
import { migratePg } from '../../engine/store/pg/pg-schema.ts';
import { failWithoutPgUnderCi, openTestPg, pgMissing, SKIP_PG, type TestPg } from '../fixtures/pg/test-pg.ts';

type Params = unknown[] | Record<string, unknown>;

/** bigint and numeric (a sum of bigints) as Numbers, as the store's PostgreSQL connection reads them. */
const INT8_OID = 20;
const NUMERIC_OID = 1700;
const types = {
  getTypeParser: (oid: number, format?: string) => (oid === INT8_OID ? parseInt8 : oid === NUMERIC_OID ? Number : pg.types.getTypeParser(oid, format as 'text')),
} as pg.CustomTypesConfig;

describe('translateSql, as text', () => {
  it('numbers ? in order, and a named parameter once however often it is used', () => {
    expect(translateSql('SELECT a FROM t WHERE b = ? AND c = ?')).toEqual({ text: 'SELECT a FROM t WHERE b = $1 AND c = $2', names: null });
    expect(translateSql('SELECT a FROM t WHERE b = @run AND c = :seq AND d = @run AND e = $day')).toEqual({ text: 'SELECT a FROM t WHERE b = $1 AND c = $2 AND d = $1 AND e = $3', names: ['run', 'seq', 'day'] });
  });

  it('leaves string literals, quoted identifiers and comments as they are', () => {
    const { text, names } = translateSql(`SELECT "max(a, b)", 'it''s ? @x json_each(?) LIKE' AS s /* ? */ FROM t -- @y\n WHERE x LIKE 'INDEXED BY' AND y = ?`);
    expect(names).toBeNull();
    expect(text).toBe(`SELECT "max(a, b)", 'it''s ? @x json_each(?) LIKE' AS s FROM t WHERE x ILIKE 'INDEXED BY' AND y = $1`);
  });

  it('says where a string or comment is not closed, and keeps PostgreSQL\'s dollar-quoted bodies whole', () => {
    expect(() => translateSql("SELECT 'abc FROM t")).toThrow(/a string that is not closed \(at character 7\)/);
    expect(() => translateSql('SELECT a /* b FROM t')).toThrow(/a comment that is not closed/);
    expect(translateSql("SELECT $$ it's ? $$ AS body, ? AS x").text).toBe("SELECT $$ it's ? $$ AS body, $1 AS x");
  });

  it('names a selected expression without an alias by its text, as SQLite names the column', () => {
    expect(translateSql('SELECT 1 FROM runs WHERE id = ?').text).toBe('SELECT 1 AS "1" FROM runs WHERE id = $1');
    expect(translateSql('SELECT e.run_id, count(*), max(seq) AS m FROM events e').text).toBe('SELECT e.run_id, count(*) AS "count(*)", max(seq) AS m FROM events e');
  });

  it('refuses what has no meaning on PostgreSQL, naming the statement', () => {
    expect(() => translateSql('PRAGMA data_version')).toThrow(new UntranslatableSql("cannot run on PostgreSQL: PRAGMA is SQLite's own; the statement: PRAGMA data_version"));
    expect(() => translateSql("SELECT count(*) FROM sqlite_master WHERE type = 'table'")).toThrow(/sqlite_master is SQLite's own; the statement: SELECT count\(\*\) FROM sqlite_master/);
    expect(() => translateSql('SELECT rowid, metrics FROM run_metrics WHERE rowid > ?')).toThrow(/rowid is SQLite's own/);
    expect(() => translateSql("SELECT strftime('%s', day) FROM t")).toThrow(/the SQLite function strftime\(\) has no PostgreSQL translation/);
    expect(() => translateSql('SELECT a FROM t WHERE b = ? AND c = @c')).toThrow(/mixes named and positional parameters/);
    expect(() => translateSql('INSERT INTO nowhere (a) VALUES (?) ON CONFLICT DO UPDATE SET a = excluded.a')).toThrow(/the conflict target of an upsert into nowhere is not known/);
  });

  it('returns the cursors of an INSERT INTO events: the last is the lastInsertRowid SQLite gives', () => {
    expect(translateSql('INSERT INTO events (run_id, seq) VALUES (?, ?), (?, ?)').text).toBe('INSERT INTO events(run_id, seq) VALUES ($1, $2), ($3, $4) RETURNING cursor');
  });

  it('drops SQLite\'s planner hints and transaction modes', () => {
    expect(translateSql('SELECT r.id FROM runs r INDEXED BY runs_by_state WHERE r.state = ?').text).toBe('SELECT r.id FROM runs r WHERE r.state = $1');
    expect(translateSql('BEGIN IMMEDIATE').text).toBe('BEGIN');
  });
});

failWithoutPgUnderCi();

describe.skipIf(SKIP_PG)(SKIP_PG ? `skipped: ${pgMissing() ?? ''}` : 'translateSql on PostgreSQL, against SQLite', () => {
  let testPg: TestPg;
  let pool: pg.Pool;
  let db: Db;
  const dir = mkdtempSync(join(tmpdir(), 'weft-translate-'));

  /** Runs `sql` on SQLite as written and on PostgreSQL translated: the rows (as arrays) or the changes of each. */
  async function both(sql: string, params: Params = []): Promise<{ sqlite: unknown; pg: unknown }> {
    const st = db.prepare(sql);
    const sqlite = st.reader ? (Array.isArray(params) ? st.raw().all(...params) : st.raw().all(params)) : (Array.isArray(params) ? st.run(...params) : st.run(params)).changes;
    const { text, names } = translateSql(sql);
    const values = names === null ? (params as unknown[]) : names.map((n) => (params as Record<string, unknown>)[n]);
    const result = await pool.query({ text, values, rowMode: 'array', types });
    return { sqlite, pg: st.reader ? result.rows : result.rowCount };
  }

  async function same(sql: string, params: Params = []): Promise<unknown> {
    const { sqlite, pg: got } = await both(sql, params);
    expect(got).toEqual(sqlite);
    return sqlite;
  }

  const RUN = "INSERT INTO runs (id, workflow_id, version, state, created_at, updated_at) VALUES (?, ?, 1, ?, ?, ?)";
  const EVENT = "INSERT INTO events (run_id, seq, at, type, data) VALUES (?, ?, ?, 'attempt_succeeded', ?)";

  beforeAll(async () => {
    db = openDatabase(join(dir, 'weft.db'));
    testPg = await openTestPg();
    ({ pool } = await testPg.newSchema());
    await migratePg(pool);
    const ids = ['b', 'B', 'a', 'é', 'Z', '_x', 'a b', 'ab', 'a\u{10FFFF}', '0'];
    for (const [k, id] of ids.entries()) await same(RUN, [id, k % 2 === 0 ? 'Order-Flow' : 'refund_flow', k % 3 === 0 ? 'running' : 'succeeded', 1_000 + k, 2_000 + k]);
    const costs = [{ meta: { cost: { amount: 0.1 } } }, { meta: { cost: { amount: 0.0000125 } } }, { meta: { cost: { amount: 2.5 } } }, { meta: {} }, { for: 'budget', meta: { cost: { amount: null } } }];
    for (const [k, data] of costs.entries()) await same(EVENT, ['b', k + 1, 86_400_000 * 20_000 + k, JSON.stringify(data)]);
  });
  afterAll(async () => {
    db?.close();
    await testPg?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an INSERT INTO events returns its cursors, consecutive and in VALUES order, the last being SQLite\'s lastInsertRowid', async () => {
    const sql = "INSERT INTO events (run_id, seq, at, type, data) VALUES (?, ?, 0, 'run_created', '{}'), (?, ?, 0, 'run_created', '{}')";
    const lastOnSqlite = db.prepare(sql).run('c', 1, 'c', 2).lastInsertRowid;
    const { rows } = await pool.query({ text: translateSql(sql).text, values: ['c', 1, 'c', 2], rowMode: 'array', types });
    expect(rows).toEqual([[Number(lastOnSqlite) - 1], [Number(lastOnSqlite)]]);
    await same("DELETE FROM events WHERE run_id = 'c'");
  });

  it('orders ids byte by byte (COLLATE "C"), as SQLite does, and finds a prefix the store\'s way', async () => {
    expect(await same('SELECT id FROM runs ORDER BY id')).toHaveLength(10);
    await same('SELECT id FROM runs ORDER BY created_at DESC, id DESC LIMIT ?', [4]);
    expect(await same('SELECT id FROM runs WHERE id >= ? AND id < ? ORDER BY id LIMIT 3', ['a', 'a\u{10FFFF}'])).toEqual([['a'], ['a b'], ['ab']]);
  });

  it('json_extract: a number where the SQL computes with it (rounded half away from zero), text where it compares with text, NULL for null or missing', async () => {
    const perRow = await same("SELECT seq, CAST(ROUND(json_extract(data, '$.meta.cost.amount') * 1000000) AS INTEGER) FROM events ORDER BY seq");
    expect(perRow).toEqual([[1, 100000], [2, 13], [3, 2500000], [4, null], [5, null]]);
    await same("SELECT sum(CAST(ROUND(json_extract(data, '$.meta.cost.amount') * 1000000) AS INTEGER)) FROM events WHERE json_extract(data, '$.meta.cost.amount') IS NOT NULL");
    expect(await same("SELECT seq FROM events WHERE json_extract(data, '$.for') = 'budget'")).toEqual([[5]]);
    await same("SELECT seq FROM events WHERE json_extract(data, '$.meta.cost') IS NOT NULL ORDER BY seq");
  });

  it('computes with 64-bit integers: a bound day times the milliseconds of a day', async () => {
    const sql = 'SELECT count(*) FROM events WHERE at >= @day * 86400000 AND at < (@day + 1) * 86400000';
    expect(await same(sql, { day: 20_000 })).toEqual([[5]]);
  });

  it('an upsert without a conflict target adds to the row of the primary key it meets', async () => {
    const upsert = 'INSERT INTO stat_runs (workflow_id, version, state, runs, retried, compensated, intervened, retries, compensations, interventions) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET runs = runs + excluded.runs, retries = retries + excluded.retries';
    await same(upsert, ['wf', 1, 'succeeded', 1, 0, 0, 0, 2, 0, 0]);
    await same(upsert, ['wf', 1, 'succeeded', 1, 0, 0, 0, 3, 0, 0]);
    expect(await same('SELECT workflow_id, runs, retries FROM stat_runs')).toEqual([['wf', 2, 5]]);
  });

  it('INSERT OR IGNORE changes nothing the second time; INSERT OR REPLACE replaces', async () => {
    expect(await same('INSERT OR IGNORE INTO policies (hash, rules) VALUES (?, ?)', ['h1', '{}'])).toBe(1);
    expect(await same('INSERT OR IGNORE INTO policies (hash, rules) VALUES (?, ?)', ['h1', '{"other":1}'])).toBe(0);
    await same('INSERT OR REPLACE INTO run_metrics (run_id, metrics) VALUES (?, ?)', ['b', '{"a":1}']);
    await same('INSERT OR REPLACE INTO run_metrics (run_id, metrics) VALUES (?, ?)', ['b', '{"a":2}']);
    expect(await same('SELECT metrics FROM policies p, run_metrics m WHERE p.hash = ?', ['h1'])).toEqual([['{"a":2}']]);
  });

  it('`IS NOT` between values: an upsert whose WHERE finds the same content changes nothing', async () => {
    const save = 'INSERT INTO saved_versions (workflow_id, version, hash, content, saved_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (workflow_id, version) DO UPDATE SET hash = excluded.hash, content = excluded.content, saved_at = excluded.saved_at WHERE content IS NOT excluded.content';
    expect(await same(save, ['wf', 2, 'h', 'text', 1])).toBe(1);
    expect(await same(save, ['wf', 2, 'h', 'text', 2])).toBe(0);
    expect(await same(save, ['wf', 2, 'h2', 'other', 3])).toBe(1);
  });

  it('a comparison selected as a value is 0 or 1 (NULL stays NULL)', async () => {
    const rows = await same("SELECT id, state = 'running', id IN ('a', 'b'), NULL = 1, EXISTS (SELECT 1 FROM events e WHERE e.run_id = runs.id) AS logged FROM runs ORDER BY id");
    expect((rows as unknown[][]).find((r) => r[0] === 'b')).toEqual(['b', 1, 1, null, 1]);
  });

  it('scalar max/min, ifnull, typeof, group_concat, instr', async () => {
    expect(await same("SELECT max(created_at, 1005), min(created_at, 1005), ifnull(idempotency_key, 'none'), typeof(created_at), typeof(id), typeof(idempotency_key) FROM runs WHERE id = ?", ['B'])).toEqual([[1005, 1001, 'none', 'integer', 'text', 'null']]);
    const { sqlite, pg: got } = await both("SELECT group_concat(id, ',') FROM runs WHERE workflow_id = ?", ['Order-Flow']);
    const sorted = (rows: unknown): string[] => String((rows as string[][])[0]?.[0]).split(',').sort();
    expect(sorted(got)).toEqual(sorted(sqlite));
    await same(`SELECT seq FROM events WHERE instr(data, '"for"') > 0`);
  });

  it('json_each(?) as a set of values; LIKE ignores the case of ASCII letters; LIMIT -1 and a bound negative limit are none', async () => {
    expect(await same('SELECT id FROM runs WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id', [JSON.stringify(['a', 'B', 'nope'])])).toEqual([['B'], ['a']]);
    expect(await same("SELECT id FROM runs WHERE workflow_id LIKE ? ESCAPE '\\' ORDER BY id", ['%ORDER-%'])).toHaveLength(5);
    expect(await same("SELECT id FROM runs WHERE workflow_id LIKE ? ESCAPE '\\' ORDER BY id", ['%refund\\_%'])).toHaveLength(5);
    expect(await same('SELECT id FROM runs ORDER BY id LIMIT -1')).toHaveLength(10);
    expect(await same('SELECT seq FROM events WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?', ['b', 1, -1])).toHaveLength(4);
  });

  it('a subquery in FROM without an alias, and a comparison in a subquery, as the store writes them', async () => {
    await same('SELECT MAX(v) AS v FROM (SELECT MAX(version) AS v FROM runs WHERE workflow_id = ? UNION ALL SELECT MAX(version) FROM saved_versions WHERE workflow_id = ?)', ['Order-Flow', 'wf']);
    await same('SELECT step_id AS stepId, count(*) AS n FROM (SELECT id AS step_id FROM runs) GROUP BY step_id ORDER BY step_id LIMIT 2');
  });
});
