// `weft store copy FROM TO` (issue 25): a whole store copied into a new one, table by table and
// row for row, events with their cursors and their data byte for byte, so the runs go on in the
// target where they stopped in the source (an engine that opens it recovers them as after a
// restart). The source is read in one transaction (one snapshot), pages of PAGE rows in primary
// key order, and the target is written in one transaction: a copy that fails leaves the target
// as it was. The tables and their columns are the schema's (storeTables): both stores are at the
// current schema, in whichever dialect. Not copied:
// the engine lease (the target is not being run), SQLite's own tables, and `event_types`, which
// the target's triggers fill as the events go in (it is copied without conflicts, in case).
import { createHash } from 'node:crypto';
import type { Db } from './db.ts';
import { PG_ONLY_TABLES } from './pg/pg-schema.ts';
import { pgTables } from './pg/pg-tables.ts';
import { StoreError } from './store-error.ts';
import { readSnapshot } from './pg/read-snapshot.ts';

/** Rows per page read, and at most per INSERT (fewer for wide tables: see insertRows). */
const PAGE = 500;
/** Bound parameters per INSERT: SQLite allows 32,766, PostgreSQL 65,535. */
const MAX_PARAMS = 10_000;
/** Tables a copy leaves out: the target is not being run by anyone. */
const NOT_COPIED = new Set(['lease']);
/** Tables the target's triggers fill as events go in: copied, but a row already there is not a conflict. */
const FILLED_BY_TRIGGERS = new Set(['event_types']);

/** A table of the store: its columns in order, and its primary key's (all its columns when it has none). */
export interface CopiedTable {
  name: string;
  columns: string[];
  key: string[];
}

export interface CopyReport {
  /** Rows copied per table, in copy order. */
  tables: Record<string, number>;
  /** The source's events: how many, the last cursor, and a sha256 over every column of every event in cursor order. */
  events: { count: number; lastCursor: number; digest: string };
}

export interface CopyOptions {
  /** Copy from a store whose lease a live engine holds: its commits after the snapshot are not in the copy. */
  force?: boolean;
  /** Now, for the lease's staleness (ms). */
  now?: number;
}

/** The lease row's freshness window (lease.ts: STALE_MS). */
const LEASE_STALE_MS = 30_000;

/**
 * The store's tables with their columns and keys, in copy order: the schema's own list
 * (pg-tables.ts reads it from the PostgreSQL baseline, which test/store/pg-dialect.test.ts holds
 * column for column to SQLite's current schema), without the tables only PostgreSQL has.
 */
export function storeTables(): CopiedTable[] {
  return [...pgTables()]
    .filter(([name]) => !NOT_COPIED.has(name) && !PG_ONLY_TABLES.includes(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, t]) => ({ name, columns: [...t.columns], key: t.primaryKey.length > 0 ? [...t.primaryKey] : [...t.columns] }));
}

/**
 * Copies every row of `from` into `to`, an empty store of the same schema. Refuses a target that
 * holds runs, and a source that a live engine is running unless `force`.
 * @example const report = copyStore(openDatabase('a.db', { mode: 'read' }), openDatabase('b.db'));
 */
export function copyStore(from: Db, to: Db, o: CopyOptions = {}): CopyReport {
  const held = to.prepare('SELECT count(*) FROM runs').pluck().get() as number;
  if (held > 0) throw new StoreError('refused', `the target store already holds ${held} run${held === 1 ? '' : 's'}; nothing was copied; copy into a new, empty store`);
  const tables = storeTables();
  return from.transaction(() => {
    // One snapshot: SQLite's read transaction is one; PostgreSQL's must be asked for.
    readSnapshot(from);
    if (o.force !== true) refuseRunning(from, o.now ?? Date.now());
    const report: CopyReport = { tables: {}, events: eventsDigest(from) };
    to.transaction(() => {
      for (const t of tables) report.tables[t.name] = copyTable(from, to, t);
    })();
    return report;
  })();
}

/** A source a live engine runs would go on committing after the snapshot: say so. */
function refuseRunning(from: Db, now: number): void {
  const lease = from.prepare('SELECT owner, pid, host, heartbeat_at FROM lease WHERE id = 1').get() as { owner: string; pid: number; host: string; heartbeat_at: number } | undefined;
  if (lease === undefined || now - lease.heartbeat_at >= LEASE_STALE_MS) return;
  throw new StoreError('locked', `the source store is being run by ${lease.owner} (process ${lease.pid} on ${lease.host}); what it commits after the copy starts would not be in the copy; stop it first, or give --force to copy what is committed now`);
}

function copyTable(from: Db, to: Db, t: CopiedTable): number {
  const cols = t.columns.join(', ');
  const keys = t.key.join(', ');
  const keyIndexes = t.key.map((k) => t.columns.indexOf(k));
  const first = from.prepare(`SELECT ${cols} FROM ${t.name} ORDER BY ${keys} LIMIT ${PAGE}`).raw();
  const next = from.prepare(`SELECT ${cols} FROM ${t.name} WHERE (${keys}) > (${t.key.map(() => '?').join(', ')}) ORDER BY ${keys} LIMIT ${PAGE}`).raw();
  let copied = 0;
  let page = first.all() as unknown[][];
  while (page.length > 0) {
    insertRows(to, t, page);
    copied += page.length;
    if (page.length < PAGE) break;
    const last = page[page.length - 1] as unknown[];
    page = next.all(...keyIndexes.map((i) => last[i])) as unknown[][];
  }
  return copied;
}

function insertRows(to: Db, t: CopiedTable, rows: unknown[][]): void {
  const per = Math.max(1, Math.min(rows.length, Math.floor(MAX_PARAMS / t.columns.length)));
  const verb = FILLED_BY_TRIGGERS.has(t.name) ? 'INSERT OR IGNORE' : 'INSERT';
  const row = `(${t.columns.map(() => '?').join(', ')})`;
  for (let k = 0; k < rows.length; k += per) {
    const chunk = rows.slice(k, k + per);
    to.prepare(`${verb} INTO ${t.name} (${t.columns.join(', ')}) VALUES ${chunk.map(() => row).join(', ')}`).run(...chunk.flat());
  }
}

/**
 * The store's events in cursor order, as a count, the last cursor and a sha256 over every column
 * of every event (each value's type and text, so 1 and '1' differ): two stores with the same
 * digest hold the same log byte for byte.
 */
export function eventsDigest(db: Db): CopyReport['events'] {
  const hash = createHash('sha256');
  let count = 0;
  let lastCursor = 0;
  const page = db.prepare(`SELECT cursor, run_id, seq, at, type, step, activation, attempt, data, reason FROM events WHERE cursor > ? ORDER BY cursor LIMIT ${PAGE}`).raw();
  for (let rows = page.all(0) as unknown[][]; rows.length > 0; rows = rows.length < PAGE ? [] : (page.all(lastCursor) as unknown[][])) {
    for (const r of rows) {
      for (const v of r) hash.update(v === null ? '\u0000n' : `\u0000${typeof v}:${String(v)}`);
      hash.update('\u0001');
      lastCursor = r[0] as number;
    }
    count += rows.length;
  }
  return { count, lastCursor, digest: hash.digest('hex') };
}
