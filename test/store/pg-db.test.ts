// PgDb (engine/store/pg/pg-db.ts) on a real PostgreSQL: the same code through SqlDb gives the
// same answers on better-sqlite3 and on PgDb (statements, both parameter styles, pluck/raw/iterate,
// transactions and savepoints), and PgDb's pipelining sends a transaction of writes in one round
// trip and fails it, naming the statement, when a queued write fails. The SQL is written so both
// databases take it as is, and translated by a small test translator (placeholders only), not by
// the store's dialect. The process lane runs it (test/lanes.ts): it may start a PostgreSQL cluster.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PgDb, type Translation } from '../../engine/store/pg/pg-db.ts';
import { PgSync, PgSyncError } from '../../engine/store/pg/pg-sync.ts';
import type { SqlDb } from '../../engine/store/pg/sql-db.ts';
import { failWithoutPgUnderCi, openTestPg, pgMissing, SKIP_PG, type TestPg } from '../fixtures/pg/test-pg.ts';

/** `?` → `$n` in order, or `@name` → `$n` with the names (enough for this file's SQL, which has no `?` or `@` in strings). */
function placeholders(sql: string): Translation {
  const names: string[] = [];
  let n = 0;
  const text = sql.replace(/\?|@(\w+)/g, (_, name: string | undefined) => {
    if (name !== undefined) names.push(name);
    return `$${++n}`;
  });
  return { text, names: names.length > 0 ? names : null };
}

/** What the store does with a connection, written once against SqlDb. */
function exercise(db: SqlDb): unknown[] {
  db.exec('CREATE TABLE items (id integer PRIMARY KEY, name text NOT NULL, qty bigint); CREATE INDEX items_by_name ON items (name)');
  const insert = db.prepare('INSERT INTO items (id, name, qty) VALUES (?, ?, ?)');
  const seen: unknown[] = [];
  seen.push(insert.run(1, 'ä-one ✓', 10).changes);
  seen.push(insert.run([2, 'two', null]).changes, insert.run(3, ['three', 30]).changes);
  seen.push(db.prepare('INSERT INTO items (id, name, qty) VALUES (@id, @name, @qty)').run({ id: 4, name: 'four', qty: 40 }).changes);
  const byId = db.prepare('SELECT id, name, qty FROM items WHERE id = @id');
  seen.push(byId.get({ id: 1 }), byId.get({ id: 99 }));
  seen.push(db.prepare('SELECT name FROM items ORDER BY id').pluck().all());
  seen.push(db.prepare('SELECT id, qty FROM items WHERE qty IS NOT NULL ORDER BY id DESC').raw().all());
  seen.push(db.prepare('SELECT sum(qty) AS total, count(*) AS n FROM items').get());
  seen.push([...db.prepare('SELECT id FROM items WHERE id > ? ORDER BY id').pluck().iterate(2)]);
  const raw = db.prepare('SELECT id, name FROM items WHERE id = ?').raw();
  seen.push(raw.get(2), raw.raw(false).get(2), raw.pluck().get(2), raw.pluck(false).get(2));
  const rename = db.prepare('UPDATE items SET name = ? WHERE id = ?');
  // A transaction commits; one whose function throws leaves nothing; a nested one that throws is undone alone.
  seen.push(db.transaction((from: number) => rename.run('renamed', from).changes + rename.run('renamed', from + 1).changes)(1));
  expect(() =>
    db.transaction(() => {
      insert.run(5, 'five', 50);
      throw new Error('changed my mind');
    })(),
  ).toThrow('changed my mind');
  db.transaction(() => {
    insert.run(6, 'six', 60);
    expect(() =>
      db.transaction(() => {
        insert.run(7, 'seven', 70);
        throw new Error('not seven');
      })(),
    ).toThrow('not seven');
    db.transaction(() => insert.run(8, 'eight', 80)).immediate();
  }).immediate();
  seen.push(db.prepare('SELECT id, name FROM items ORDER BY id').raw().all());
  return seen;
}

failWithoutPgUnderCi();

describe.skipIf(SKIP_PG)(SKIP_PG ? `skipped: ${pgMissing() ?? ''}` : 'PgDb on a real server', () => {
  let pg: TestPg;
  let db: PgDb;
  beforeAll(async () => {
    pg = await openTestPg();
  });
  beforeEach(async () => {
    db = new PgDb(PgSync.open(pg.url, { schema: (await pg.newSchema()).name }), placeholders);
    return () => {
      db.close();
    };
  });
  afterAll(async () => {
    await pg?.close();
  });

  it('answers as better-sqlite3 does, through the same SqlDb code', () => {
    const sqlite = new Database(':memory:');
    const expected = exercise(sqlite);
    sqlite.close();
    expect(expected).toEqual([
      1, 1, 1, 1,
      { id: 1, name: 'ä-one ✓', qty: 10 }, undefined,
      ['ä-one ✓', 'two', 'three', 'four'],
      [[4, 40], [3, 30], [1, 10]],
      { total: 80, n: 4 },
      [3, 4],
      [2, 'two'], { id: 2, name: 'two' }, 2, { id: 2, name: 'two' },
      2,
      [[1, 'renamed'], [2, 'renamed'], [3, 'three'], [4, 'four'], [6, 'six'], [8, 'eight']],
    ]);
    expect(exercise(db)).toEqual(expected);
  });

  it('sends a transaction of 100 writes and its commit in one round trip', () => {
    db.exec('CREATE TABLE log (n integer PRIMARY KEY, word text)');
    const insert = db.prepare('INSERT INTO log (n, word) VALUES (?, ?)');
    const before = db.pg.roundTrips;
    const results = db.transaction(() => Array.from({ length: 100 }, (_, n) => insert.run(n, `w${n}`)))();
    expect(db.pg.roundTrips - before).toBe(1);
    expect(results.map((r) => r.changes)).toEqual(Array.from({ length: 100 }, () => 1));
    expect(db.prepare('SELECT count(*) FROM log').pluck().get()).toBe(100);
  });

  it('sends the queue when a result is read, and with each read', () => {
    db.exec('CREATE TABLE log (n integer PRIMARY KEY)');
    const insert = db.prepare('INSERT INTO log (n) VALUES (?)');
    const count = db.prepare('SELECT count(*) FROM log').pluck();
    const trips: number[] = [];
    db.transaction(() => {
      const start = db.pg.roundTrips;
      const first = insert.run(1);
      insert.run(2);
      trips.push(db.pg.roundTrips - start);
      expect(first.changes).toBe(1);
      trips.push(db.pg.roundTrips - start);
      insert.run(3);
      expect(count.get()).toBe(3);
      trips.push(db.pg.roundTrips - start);
    })();
    expect(trips).toEqual([0, 1, 2]);
  });

  it('gives the RETURNING value as lastInsertRowid, else 0', () => {
    db.exec('CREATE TABLE seqd (id bigserial PRIMARY KEY, word text)');
    const returning = db.prepare('INSERT INTO seqd (word) VALUES (?) RETURNING id');
    expect(returning.run('a').lastInsertRowid).toBe(1);
    const ids = db.transaction(() => [returning.run('b'), returning.run('c')])().map((r) => r.lastInsertRowid);
    expect(ids).toEqual([2, 3]);
    expect(db.prepare('INSERT INTO seqd (word) VALUES (?)').run('d').lastInsertRowid).toBe(0);
  });

  it('fails the transaction at commit when a queued write fails, naming it, and leaves none of its rows', () => {
    db.exec('CREATE TABLE log (n integer PRIMARY KEY)');
    const insert = db.prepare('INSERT INTO log (n) VALUES (?)');
    let early: { changes: number } | undefined;
    let error: unknown;
    try {
      db.transaction(() => {
        early = insert.run(1);
        insert.run(1);
        insert.run(2);
      })();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PgSyncError);
    const e = error as PgSyncError;
    expect([e.code, e.index, e.text]).toEqual(['23505', 2, 'INSERT INTO log (n) VALUES ($1)']);
    expect(e.message).toContain('statement 3 of 5: INSERT INTO log (n) VALUES ($1)');
    expect(e.message).toContain("the store's SQL: INSERT INTO log (n) VALUES (?)");
    expect(() => early?.changes).toThrow(/result is not known: its transaction failed/);
    expect(db.inTransaction).toBe(false);
    expect(db.prepare('SELECT count(*) FROM log').pluck().get()).toBe(0);
  });

  it('refuses to go on with, or to commit, a transaction whose function caught a failed statement', () => {
    db.exec('CREATE TABLE log (n integer PRIMARY KEY)');
    const insert = db.prepare('INSERT INTO log (n) VALUES (?)');
    const failOnce = (then: () => void) => (): void => {
      insert.run(1);
      expect(() => insert.run(1).changes).toThrow(/duplicate key/);
      then();
    };
    // PostgreSQL aborted the transaction: its COMMIT would only roll back.
    expect(db.transaction(failOnce(() => undefined))).toThrow(/duplicate key/);
    expect(db.transaction(failOnce(() => insert.run(2)))).toThrow(/duplicate key/);
    expect(db.prepare('SELECT count(*) FROM log').pluck().get()).toBe(0);
  });

  it('goes on after a nested transaction whose statement failed, as its savepoint undoes it', () => {
    db.exec('CREATE TABLE log (n integer PRIMARY KEY)');
    const insert = db.prepare('INSERT INTO log (n) VALUES (?)');
    db.transaction(() => {
      insert.run(1);
      expect(() => db.transaction(() => insert.run(1).changes)()).toThrow(/duplicate key/);
      insert.run(2);
    })();
    expect(db.prepare('SELECT n FROM log ORDER BY n').pluck().all()).toEqual([1, 2]);
  });

  it('costs no round trip for a transaction whose function throws before anything was sent', () => {
    db.exec('CREATE TABLE log (n integer PRIMARY KEY)');
    const insert = db.prepare('INSERT INTO log (n) VALUES (?)');
    const before = db.pg.roundTrips;
    let queued: { changes: number } | undefined;
    expect(() =>
      db.transaction(() => {
        queued = insert.run(1);
        throw new Error('no');
      })(),
    ).toThrow('no');
    expect(db.pg.roundTrips).toBe(before);
    expect(() => queued?.changes).toThrow(/was not run: its transaction \(or savepoint\) was rolled back/);
    expect(() => db.transaction(async () => insert.run(1))()).toThrow('Transaction function cannot return a promise');
    expect(db.prepare('SELECT count(*) FROM log').pluck().get()).toBe(0);
  });

  it('refuses parameters that do not fit the statement, and PRAGMAs, clearly', () => {
    expect(() => db.prepare('SELECT @a::int + @b::int').get({ a: 1 })).toThrow('Missing named parameter "b" for: SELECT @a::int + @b::int');
    expect(() => db.prepare('SELECT ?::int').get({ a: 1 })).toThrow(/named parameters were given, but the statement has only positional ones/);
    expect(() => db.pragma('journal_mode = WAL')).toThrow(/PRAGMA journal_mode = WAL is SQLite's and means nothing on PostgreSQL/);
  });
});
