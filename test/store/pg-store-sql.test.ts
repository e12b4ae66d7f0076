// Every SQL text the store runs, translated for PostgreSQL (pg-dialect.ts) and run there. Real
// engine tests (FILES: runs with retries and failures, external steps, timers, waits for a person,
// external events, budgets under a policy, child runs, replays and snapshots, stats and rollups,
// the runs list and search, saved versions, definitions) run on real SQLite stores in a child
// vitest that records each text SQLite is handed, the engine line that handed it, and the values
// it first ran with (test/fixtures/pg/record-sql.ts). Here each text is translated and run on a
// migrated PostgreSQL schema with those values, in a transaction rolled back (PREPAREd when it
// never ran with values). Every SQL line of engine/ must have been seen, and what cannot be
// translated is listed below by what it is, with why. The process lane runs it.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqliteDb as Db } from '../../engine/store/db.ts';
import { copyStore } from '../../engine/store/copy-store.ts';
import { Lease } from '../../engine/store/lease.ts';
import { openDatabase } from '../../engine/store/open-database.ts';
import { translateSql, UntranslatableSql } from '../../engine/store/pg/pg-dialect.ts';
import { migratePg } from '../../engine/store/pg/pg-schema.ts';
import { definitionVersions } from '../../engine/store/run-list.ts';
import { runVersionHash } from '../../engine/store/saved-versions.ts';
import { Store } from '../../engine/store/store.ts';
import { recordSql, stopRecordingSql, type SqlRecord } from '../fixtures/pg/record-sql.ts';
import { sourceSqlSites } from '../fixtures/pg/sql-site.ts';
import { failWithoutPgUnderCi, openTestPg, pgMissing, SKIP_PG, type TestPg } from '../fixtures/pg/test-pg.ts';

/** The engine tests whose SQL is recorded: together they reach every SQL line of the store but the few called below. */
const FILES = [
  'test/engine/attempts.test.ts',
  'test/engine/children.test.ts',
  'test/engine/people-events.test.ts',
  'test/engine/virtual-time.test.ts',
  'test/engine/queue.test.ts',
  'test/engine/rebill.test.ts',
  'test/engine/store.test.ts',
  'test/engine/run-snapshots.test.ts',
  'test/engine/saved-versions.test.ts',
  'test/engine/event-cursor.test.ts',
  'test/engine/cost-stats.test.ts',
  'test/engine/run-list-plan.test.ts',
  'test/engine/run-to-scenario-roundtrip.test.ts',
  'test/budget/budget-scenarios.test.ts',
  'test/budget/daily-spend.test.ts',
  'test/service/engine-service.test.ts',
  'test/server/replay-routes.test.ts',
  'test/server/served-reads.test.ts',
  'test/server/run-list-search.test.ts',
  'test/cli/damaged-log-writes.test.ts',
];

/**
 * What cannot run on PostgreSQL, by what it is: each must be refused by translateSql (or be one
 * of SQLite's migrations), and takes a branch of its own on a PostgreSQL store.
 */
const SQLITE_ONLY: readonly { what: RegExp; why: string }[] = [
  { what: /^PRAGMA (busy_timeout|journal_mode|synchronous|wal_checkpoint)\b/, why: 'SQLite connection and WAL settings (open-database.ts, create-store.ts, unit-of-work.ts durable commits): on PostgreSQL PgDb.pragma maps synchronous to synchronous_commit, and the rest mean nothing' },
  { what: /^PRAGMA (user_version|application_id)\b/, why: 'SQLite\'s header (open-database.ts, recognise-store.ts, check-log.ts): PostgreSQL keeps both in weft_meta (migratePg)' },
  { what: /^PRAGMA data_version$/, why: 'day-spend.ts: whether another connection committed; on PostgreSQL store-sql.ts reads log_head.last instead' },
  { what: /FROM sqlite_master\b/, why: 'table presence (cost-rollups, run-snapshots, workflow-rollups, policy-snapshots, recognise-store): on PostgreSQL store-sql.ts reads the catalogue instead' },
  { what: /\bpragma_table_info\(/, why: 'cost-rollups.ts: whether stat_runs has the cost bucket of schema 20 (migration builds run before it); a PostgreSQL store has it from its baseline' },
  { what: /\browid\b/, why: 'each-rollup.ts pages run_metrics by rowid for migration backfills, which only run on SQLite (PostgreSQL starts at the baseline)' },
];

/** Whether a record is SQLite's own migration DDL (open-database.ts, create-store.ts): PostgreSQL's schema is pg-schema.ts. */
const isMigrationDdl = (r: SqlRecord): boolean => r.kind === 'exec' && /engine\/store\/(open-database|create-store)\.ts:/.test(r.site);

/** Calls of the store's rarer SQL lines, which no engine test above reaches (`weft store copy` runs in a child there). */
function callRareLines(): void {
  const dir = mkdtempSync(join(tmpdir(), 'weft-pg-sql-'));
  const db = openDatabase(join(dir, 'weft.db'));
  const copy = openDatabase(join(dir, 'copy.db'));
  try {
    db.prepare("INSERT INTO runs (id, workflow_id, version, state, created_at, updated_at) VALUES ('r1', 'flow', 1, 'running', 1, 1)").run();
    db.prepare("INSERT INTO events (run_id, seq, at, type, data) VALUES ('r1', 1, 1, 'run_created', '{}')").run();
    copyStore(db, copy);
    const store = new Store(db);
    store.referencedArtifacts();
    store.runIdsOfWorkflow('flow', 1);
    definitionVersions(db, 'flow');
    runVersionHash(db, 'flow', 1);
    const lease = new Lease(db, 'test', () => 1);
    lease.acquire();
    lease.heartbeat();
    lease.release();
  } finally {
    db.close();
    copy.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The child vitest run of FILES under the recorder: its records. */
async function recordEngineTests(out: string): Promise<SqlRecord[]> {
  const vitest = join(process.cwd(), 'node_modules', 'vitest', 'vitest.mjs');
  const child = spawn(process.execPath, [vitest, 'run', '--config', 'test/fixtures/pg/record-sql.config.ts', ...FILES], {
    env: { ...process.env, WEFT_RECORD_SQL: out },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`the recorded engine tests failed (exit ${code}):\n${output.slice(-4000)}`);
  return readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as SqlRecord);
}

/** A recorded value as node-postgres binds it. */
const bindable = (v: unknown): unknown => (v !== null && typeof v === 'object' && '$buffer' in v ? Buffer.from(String((v as { $buffer: string }).$buffer), 'base64') : v);

failWithoutPgUnderCi();

describe.skipIf(SKIP_PG)(SKIP_PG ? `skipped: ${pgMissing() ?? ''}` : 'the store\'s SQL on PostgreSQL', () => {
  let pg: TestPg;
  let pool: pg.Pool;
  let records: SqlRecord[];
  let fresh: Db;
  const dir = mkdtempSync(join(tmpdir(), 'weft-record-sql-'));

  beforeAll(async () => {
    const here: SqlRecord[] = [];
    recordSql((r) => here.push(r));
    try {
      callRareLines();
    } finally {
      stopRecordingSql();
    }
    records = [...(await recordEngineTests(join(dir, 'sql.jsonl'))), ...here];
    fresh = openDatabase(join(dir, 'fresh.db'));
    pg = await openTestPg();
    ({ pool } = await pg.newSchema());
    await migratePg(pool);
  }, 900_000);
  afterAll(async () => {
    fresh?.close();
    await pg?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The column names of a read on a fresh SQLite store, or undefined for one of an older schema's tables. */
  function columnsOnSqlite(sql: string): string[] | undefined {
    try {
      return fresh.prepare(sql).columns().map((c) => c.name);
    } catch {
      return undefined;
    }
  }

  it('saw every line of engine/ that hands SQL to the store\'s connection', () => {
    const seen = new Set(records.map((r) => r.site));
    const sites = sourceSqlSites();
    expect(sites.length).toBeGreaterThan(100);
    expect(sites.filter((s) => !seen.has(s))).toEqual([]);
  });

  it('translates every statement the store ran, and PostgreSQL runs each; only the listed SQLite-only ones are refused', async () => {
    const statements = new Map<string, SqlRecord>();
    const args = new Map<string, unknown[]>();
    const readsObjects = new Set<string>();
    // run-list-plan.test.ts asks SQLite for the plan of the runs list's statements: the statement is what counts here.
    const unplanned = (sql: string): string => sql.replace(/^EXPLAIN QUERY PLAN /, '');
    for (const raw of records) {
      const r = { ...raw, sql: unplanned(raw.sql) };
      if (r.kind === 'args') {
        if (!args.has(r.sql) && r.args !== undefined) args.set(r.sql, r.args);
        if (r.mode === 'object') readsObjects.add(r.sql);
      } else if (r.site !== 'outside engine/' && !isMigrationDdl(r) && !statements.has(r.sql)) statements.set(r.sql, r);
    }
    const failures: string[] = [];
    const refused = new Map<string, number>();
    let ran = 0;
    const client = await pool.connect();
    try {
      for (const [sql, r] of statements) {
        const allowed = SQLITE_ONLY.find((a) => a.what.test(sql.trim()));
        let translated;
        try {
          translated = translateSql(sql);
        } catch (e) {
          if (allowed !== undefined && e instanceof UntranslatableSql) refused.set(allowed.why, (refused.get(allowed.why) ?? 0) + 1);
          else failures.push(`${r.site}: not translated: ${(e as Error).message}`);
          continue;
        }
        if (allowed !== undefined) {
          failures.push(`${r.site}: listed as SQLite-only (${allowed.why}) but translated: ${sql}`);
          continue;
        }
        const given = args.get(sql);
        const values = given === undefined || given.length === 0 ? undefined : translated.names === null ? given.map(bindable) : translated.names.map((n) => bindable((given[0] as Record<string, unknown>)[n]));
        await client.query('BEGIN');
        try {
          if (values !== undefined || !/\$1\b/.test(translated.text)) {
            const result = await client.query(translated.text, values);
            // A read whose rows the store takes as objects names their keys by its columns: the same on both.
            const names = readsObjects.has(sql) ? columnsOnSqlite(sql) : undefined;
            if (names !== undefined && JSON.stringify(result.fields.map((f) => f.name)) !== JSON.stringify(names)) {
              failures.push(`${r.site}: columns ${JSON.stringify(result.fields.map((f) => f.name))} on PostgreSQL, ${JSON.stringify(names)} on SQLite: ${sql}`);
            }
          } else {
            // Never ran with values (a page that was not needed): PostgreSQL checks its syntax and types.
            await client.query(`PREPARE weft_check AS ${translated.text}`);
            await client.query('DEALLOCATE weft_check');
          }
          ran++;
        } catch (e) {
          failures.push(`${r.site}: PostgreSQL refused ${JSON.stringify(translated.text)}${values === undefined ? '' : ` with ${JSON.stringify(values).slice(0, 200)}`}: ${(e as Error).message}`);
        } finally {
          await client.query('ROLLBACK');
        }
      }
    } finally {
      client.release();
    }
    expect(failures).toEqual([]);
    expect(ran).toBeGreaterThan(120);
    // Each SQLite-only kind was met (the list holds nothing the store no longer runs).
    expect([...refused.keys()].sort()).toEqual(SQLITE_ONLY.map((a) => a.why).sort());
  });
});
