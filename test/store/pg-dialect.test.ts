// The PostgreSQL schema (engine/store/pg/pg-schema.ts) means what the SQLite one does, checked on a
// real server against a fresh SQLite store: the same tables, columns in the same order with the
// same NOT NULL, defaults, primary keys and indexes, and types that hold the same values; plus
// migratePg's refusals. The process lane runs it (test/lanes.ts): it starts a PostgreSQL cluster.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../engine/store/migrations.ts';
import { openDatabase } from '../../engine/store/open-database.ts';
import { migratePg, PG_ONLY_TABLES, PG_SCHEMA_VERSION } from '../../engine/store/pg/pg-schema.ts';
import { failWithoutPgUnderCi, openTestPg, pgMissing, SKIP_PG, type TestPg } from '../fixtures/pg/test-pg.ts';

interface Column {
  name: string;
  type: string;
  notNull: boolean;
  default: string | null;
}

interface Index {
  name: string;
  columns: string[];
  unique: boolean;
  partial: boolean;
}

interface Table {
  columns: Column[];
  primaryKey: string[];
  indexes: Index[];
}

/** What each SQLite type may be on PostgreSQL. */
const COMPATIBLE: Record<string, readonly string[]> = {
  INTEGER: ['bigint', 'integer', 'smallint'],
  TEXT: ['text'],
  REAL: ['double precision'],
  BLOB: ['bytea'],
};

/** The tables of a fresh SQLite store at SCHEMA_VERSION, as SQLite reports them. */
function sqliteTables(): Map<string, Table> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-dialect-'));
  const db = openDatabase(join(dir, 'store.db'));
  try {
    const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'sqlite_sequence' ORDER BY name").pluck().all() as string[];
    const tables = new Map<string, Table>();
    for (const name of names) {
      const info = db.prepare('SELECT name, type, "notnull" AS nn, dflt_value AS dflt, pk FROM pragma_table_info(?) ORDER BY cid').all(name) as { name: string; type: string; nn: number; dflt: string | null; pk: number }[];
      const indexList = db.prepare("SELECT name, \"unique\" AS u, partial FROM pragma_index_list(?) WHERE origin = 'c' ORDER BY name").all(name) as { name: string; u: number; partial: number }[];
      tables.set(name, {
        // A primary key column holds no NULL on PostgreSQL; SQLite lets a rowid table's TEXT key
        // be NULL (a legacy quirk nothing of weft's uses), so it counts as NOT NULL here.
        columns: info.map((c) => ({ name: c.name, type: c.type, notNull: c.nn === 1 || c.pk > 0, default: c.dflt })),
        primaryKey: info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name),
        indexes: indexList.map((i) => ({
          name: i.name,
          columns: db.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno').pluck().all(i.name) as string[],
          unique: i.u === 1,
          partial: i.partial === 1,
        })),
      });
    }
    return tables;
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The tables of the pool's schema (its search_path), as PostgreSQL's catalog reports them. */
async function pgTables(pool: pg.Pool): Promise<Map<string, Table & { collations: Map<string, string | null> }>> {
  const { rows: columns } = await pool.query<{ table: string; name: string; type: string; nullable: string; dflt: string | null; collation: string | null }>(`
    SELECT table_name AS table, column_name AS name, data_type AS type, is_nullable AS nullable, column_default AS dflt, collation_name AS collation
    FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`);
  const { rows: indexes } = await pool.query<{ table: string; name: string; primary: boolean; unique: boolean; partial: boolean; columns: string[] }>(`
    SELECT t.relname AS table, c.relname AS name, i.indisprimary AS primary, i.indisunique AS unique, i.indpred IS NOT NULL AS partial,
      ARRAY(SELECT a.attname::text FROM unnest(i.indkey) WITH ORDINALITY k(attnum, ord)
            JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.ord) AS columns
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
    WHERE t.relnamespace = current_schema()::regnamespace ORDER BY c.relname`);
  const tables = new Map<string, Table & { collations: Map<string, string | null> }>();
  for (const c of columns) {
    const table = tables.get(c.table) ?? { columns: [] as Column[], primaryKey: [] as string[], indexes: [] as Index[], collations: new Map<string, string | null>() };
    // A default reads back with its cast ('run'::text): the value is what both must agree on.
    table.columns.push({ name: c.name, type: c.type, notNull: c.nullable === 'NO', default: c.dflt?.replace(/::[a-z ]+$/, '') ?? null });
    table.collations.set(c.name, c.collation);
    tables.set(c.table, table);
  }
  for (const i of indexes) {
    const table = tables.get(i.table);
    if (table === undefined) continue;
    if (i.primary) table.primaryKey = i.columns;
    else table.indexes.push({ name: i.name, columns: i.columns, unique: i.unique, partial: i.partial });
  }
  return tables;
}

failWithoutPgUnderCi();

describe.skipIf(SKIP_PG)(SKIP_PG ? `skipped: ${pgMissing() ?? ''}` : 'the PostgreSQL schema against the SQLite one', () => {
  let pg: TestPg;
  let sqlite: Map<string, Table>;

  beforeAll(async () => {
    sqlite = sqliteTables();
    pg = await openTestPg();
  });
  afterAll(async () => {
    await pg?.close();
  });

  it('is at the schema version of SQLite (add the PostgreSQL side of every new migration)', () => {
    expect(PG_SCHEMA_VERSION).toBe(SCHEMA_VERSION);
  });

  it('has every SQLite table with the same columns, NOT NULL, defaults, keys and indexes, and only weft_meta and log_head besides', async () => {
    const { pool } = await pg.newSchema();
    expect(await migratePg(pool)).toEqual({ from: 0, to: PG_SCHEMA_VERSION });
    const tables = await pgTables(pool);
    expect([...tables.keys()].filter((t) => !sqlite.has(t)).sort()).toEqual([...PG_ONLY_TABLES].sort());
    expect(sqlite.size).toBeGreaterThan(10);
    // Soft: one run lists every difference, not the first.
    for (const [name, want] of sqlite) {
      const got = tables.get(name);
      expect.soft(got, `table ${name} on PostgreSQL`).toBeDefined();
      if (got === undefined) continue;
      expect.soft(got.columns.map((c) => c.name), `${name}: columns in order`).toEqual(want.columns.map((c) => c.name));
      for (const [i, column] of want.columns.entries()) {
        const other = got.columns[i];
        const where = `${name}.${column.name}`;
        expect.soft(COMPATIBLE[column.type], `${where}: a SQLite type the test knows`).toBeDefined();
        expect.soft(COMPATIBLE[column.type], `${where}: ${column.type} on SQLite, ${other?.type} on PostgreSQL`).toContain(other?.type);
        expect.soft(other?.notNull, `${where}: NOT NULL`).toBe(column.notNull);
        expect.soft(other?.default ?? null, `${where}: default`).toBe(column.default);
      }
      expect.soft(got.primaryKey, `${name}: primary key`).toEqual(want.primaryKey);
      expect.soft(got.indexes, `${name}: secondary indexes`).toEqual(want.indexes);
      // Keys compare bytewise, as SQLite's BINARY does, whatever the database's locale.
      const keyed = new Set([...got.primaryKey, ...got.indexes.flatMap((i) => i.columns)]);
      for (const column of got.columns.filter((c) => c.type === 'text' && keyed.has(c.name))) {
        expect.soft(got.collations.get(column.name), `${name}.${column.name}: COLLATE "C"`).toBe('C');
      }
    }
  });

  it('marks the store as weft at its version, starts the log head at 0, and migrating again changes nothing', async () => {
    const { pool } = await pg.newSchema();
    await migratePg(pool);
    const before = await pgTables(pool);
    expect(await migratePg(pool)).toEqual({ from: PG_SCHEMA_VERSION, to: PG_SCHEMA_VERSION });
    expect(await pgTables(pool)).toEqual(before);
    const { rows: meta } = await pool.query('SELECT key, value FROM weft_meta ORDER BY key');
    expect(meta).toEqual([{ key: 'application', value: 'weft' }, { key: 'schema_version', value: String(PG_SCHEMA_VERSION) }]);
    const { rows: head } = await pool.query('SELECT id, last FROM log_head');
    expect(head).toEqual([{ id: 1, last: 0 }]);
  });

  it('migrates once when several processes start together', async () => {
    const { pool } = await pg.newSchema();
    const results = await Promise.all([migratePg(pool), migratePg(pool)]);
    expect(results.map((r) => r.from).sort()).toEqual([0, PG_SCHEMA_VERSION]);
    const { rows } = await pool.query<{ n: number }>('SELECT count(*) AS n FROM weft_meta');
    expect(rows[0]?.n).toBe(2);
  });

  it('refuses a store of a newer schema version, saying to use a newer Weft, and changes nothing', async () => {
    const { pool } = await pg.newSchema();
    await migratePg(pool);
    await pool.query("UPDATE weft_meta SET value = $1 WHERE key = 'schema_version'", [String(PG_SCHEMA_VERSION + 1)]);
    await expect(migratePg(pool, 'the store at test')).rejects.toThrow(
      `the store at test has schema version ${PG_SCHEMA_VERSION + 1}, newer than this Weft's (${PG_SCHEMA_VERSION}); nothing was changed; use a newer Weft with this store`,
    );
    const { rows } = await pool.query("SELECT value FROM weft_meta WHERE key = 'schema_version'");
    expect(rows).toEqual([{ value: String(PG_SCHEMA_VERSION + 1) }]);
  });

  it('brings a store of schema 18 or 19 to this version, giving stat_runs the bucket columns of the baseline (migration 20); refuses one older', async () => {
    const { pool } = await pg.newSchema();
    await migratePg(pool);
    const before = await pgTables(pool);
    const bucket = ['cost_day', 'cost_currency', 'cost_micros', 'cost_input_tokens', 'cost_output_tokens', 'cost_attempts'];
    for (const version of ['18', '19']) {
      await pool.query(`ALTER TABLE stat_runs ${bucket.map((c) => `DROP COLUMN ${c}`).join(', ')}`);
      await pool.query("UPDATE weft_meta SET value = $1 WHERE key = 'schema_version'", [version]);
      expect(await migratePg(pool)).toEqual({ from: Number(version), to: PG_SCHEMA_VERSION });
      expect(await pgTables(pool)).toEqual(before);
      const { rows } = await pool.query("SELECT value FROM weft_meta WHERE key = 'schema_version'");
      expect(rows).toEqual([{ value: String(PG_SCHEMA_VERSION) }]);
    }
    await pool.query("UPDATE weft_meta SET value = '17' WHERE key = 'schema_version'");
    await expect(migratePg(pool, 'the store at test')).rejects.toThrow('the store at test has schema version 17, older than the first PostgreSQL schema (18), which no Weft made; nothing was changed');
  });

  it('refuses a database that holds other tables and no weft_meta, creating nothing', async () => {
    const { pool } = await pg.newSchema();
    await pool.query('CREATE TABLE orders (id integer PRIMARY KEY)');
    await expect(migratePg(pool)).rejects.toThrow(/holds tables \(orders\) but is not a Weft store: it has no weft_meta table; nothing was changed/);
    const { rows } = await pool.query<{ n: number }>('SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = current_schema()');
    expect(rows[0]?.n).toBe(1);
  });

  it('refuses a weft_meta of another application', async () => {
    const { pool } = await pg.newSchema();
    await pool.query('CREATE TABLE weft_meta (key text PRIMARY KEY, value text NOT NULL)');
    await pool.query("INSERT INTO weft_meta VALUES ('application', 'other'), ('schema_version', '1')");
    await expect(migratePg(pool)).rejects.toThrow(/its application is "other", not "weft": it is not a Weft store/);
  });
});
