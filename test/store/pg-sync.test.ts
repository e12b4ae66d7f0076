// PgSync (engine/store/pg/pg-sync.ts) on a real PostgreSQL: values come back as the store reads
// them, a batch runs in order and stops at its first failure, a round trip that takes too long or
// a server that dies fails clearly and never hangs or ends the process, notifications arrive (and
// again after the LISTEN connection is lost), and no message carries the URL's password. The
// process lane runs it (test/lanes.ts): it starts PostgreSQL clusters.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgSync, PgSyncError } from '../../engine/store/pg/pg-sync.ts';
import { StoreError } from '../../engine/store/store-error.ts';
import { overrideEnv } from '../env-override.ts';
import { pgBin, pgInstalled, startCluster } from '../fixtures/pg/cluster.ts';
import { failWithoutPgUnderCi, openTestPg, pgMissing, SKIP_PG, type TestPg } from '../fixtures/pg/test-pg.ts';
import { WAIT_BOUND_MS, waitUntil } from '../wait-until.ts';

const SECRET = 'pw-S3cret-x9';

/** The URL with a password in it (the test servers trust local users, so it is ignored there). */
function withPassword(url: string): string {
  const u = new URL(url);
  u.password = SECRET;
  return u.toString();
}

/** What `act` threw. */
function thrown(act: () => unknown): Error {
  try {
    act();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a throw');
}

failWithoutPgUnderCi();

describe.skipIf(SKIP_PG)(SKIP_PG ? `skipped: ${pgMissing() ?? ''}` : 'PgSync on a real server', () => {
  let pg: TestPg;
  let url: string;
  let schema: string;
  beforeAll(async () => {
    pg = await openTestPg();
    url = withPassword(pg.url);
    schema = (await pg.newSchema()).name;
  });
  afterAll(async () => {
    await pg?.close();
  });

  it('gives int8 and numeric as Numbers, text, null and bytea as better-sqlite3 would, rows as objects or arrays', () => {
    const db = PgSync.open(url, { schema });
    try {
      const answer = db.query(
        "SELECT 9007199254740991::bigint AS big, sum(x) AS total, avg(x) AS mean, $1::text AS word, NULL AS nothing, '\\x00ff'::bytea AS bytes FROM (VALUES (1::bigint), (2::bigint)) v(x)",
        ['naïve ✓ 😀'],
      );
      expect(answer.rows).toEqual([{ big: Number.MAX_SAFE_INTEGER, total: 3, mean: 1.5, word: 'naïve ✓ 😀', nothing: null, bytes: Buffer.from([0, 255]) }]);
      expect(Buffer.isBuffer((answer.rows[0] as { bytes: unknown }).bytes)).toBe(true);
      expect(answer.fields).toEqual(['big', 'total', 'mean', 'word', 'nothing', 'bytes']);
      expect(db.query('SELECT 1 AS a, $1::text AS b', ['x'], 'array').rows).toEqual([[1, 'x']]);
      // A numeric a Number cannot hold exactly is refused, and the connection stays usable.
      expect(() => db.query('SELECT sum(x) AS s FROM (VALUES (9007199254740991::bigint), (2::bigint)) v(x)')).toThrow(/numeric 9007199254740993, which Weft cannot read exactly/);
      expect(() => db.query("SELECT 'NaN'::numeric AS n")).toThrow(/numeric NaN/);
      expect(db.query('SELECT 2::bigint AS two').rows).toEqual([{ two: 2 }]);
    } finally {
      db.close();
    }
  });

  it('runs a batch in order in one round trip, and stops at the first failure with its code, index and text', () => {
    const db = PgSync.open(url, { schema });
    try {
      db.query('CREATE TABLE batch_items (id integer PRIMARY KEY, at serial)');
      const before = db.roundTrips;
      const answers = db.batch([
        { text: 'INSERT INTO batch_items (id) VALUES ($1), ($2)', values: [2, 1] },
        { text: 'SELECT id FROM batch_items ORDER BY at', values: [], rowMode: 'array' },
        { text: 'DELETE FROM batch_items WHERE id = $1', values: [2] },
      ]);
      expect(db.roundTrips - before).toBe(1);
      expect(answers.map((a) => a.rowCount)).toEqual([2, 2, 1]);
      expect(answers[1]?.rows).toEqual([[2], [1]]);

      const error = thrown(() =>
        db.batch([
          { text: 'INSERT INTO batch_items (id) VALUES ($1)', values: [3] },
          { text: 'INSERT INTO batch_items (id) VALUES ($1)', values: [1] },
          { text: 'INSERT INTO batch_items (id) VALUES ($1)', values: [4] },
        ]),
      );
      expect(error).toBeInstanceOf(PgSyncError);
      const e = error as PgSyncError;
      expect([e.code, e.index, e.text, e.constraint]).toEqual(['23505', 1, 'INSERT INTO batch_items (id) VALUES ($1)', 'batch_items_pkey']);
      expect(e.message).toContain('statement 2 of 3: INSERT INTO batch_items (id) VALUES ($1)');
      expect(e.message).toContain('duplicate key value violates unique constraint');
      // The first ran (no transaction: it committed), the third never did.
      expect(db.query('SELECT id FROM batch_items ORDER BY id', [], 'array').rows).toEqual([[1], [3]]);
    } finally {
      db.close();
    }
  });

  it('gives up on a round trip past the timeout, says so without the password, and refuses every later call', () => {
    const db = PgSync.open(url, { schema, timeoutMs: 300 });
    const error = thrown(() => db.query('SELECT pg_sleep(5)'));
    expect(error).toBeInstanceOf(StoreError);
    expect(error.message).toMatch(/did not answer within 300 ms while running SELECT pg_sleep\(5\); the connection is closed .*WEFT_PG_TIMEOUT_MS/);
    expect(error.message).not.toContain(SECRET);
    expect(db.closed).toBe(true);
    const later = thrown(() => db.query('SELECT 1'));
    expect(later.message).toMatch(/^cannot use the connection to PostgreSQL database .*: PostgreSQL did not answer within 300 ms/);
    expect(later.message).not.toContain(SECRET);
    db.close();
  });

  it('refuses a bad WEFT_PG_TIMEOUT_MS clearly', () => {
    const restore = overrideEnv({ WEFT_PG_TIMEOUT_MS: 'soon' });
    try {
      expect(() => PgSync.open(url)).toThrow(/WEFT_PG_TIMEOUT_MS is "soon"; set it to a whole number of milliseconds/);
    } finally {
      restore();
    }
  });

  it('names the place and never the password when it cannot connect', () => {
    const empty = mkdtempSync(join(tmpdir(), 'weft-nopg-'));
    try {
      const error = thrown(() => PgSync.open(`postgres://weft:${SECRET}@${encodeURIComponent(empty)}/nowhere`));
      expect(error).toBeInstanceOf(StoreError);
      expect(error.message).toContain(`cannot connect to PostgreSQL database "nowhere" on the socket in ${empty} (port 5432) as weft: `);
      expect(error.message).toContain('check that PostgreSQL is running there');
      expect(error.message).not.toContain(SECRET);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('refuses calls once closed, and once its thread has stopped', async () => {
    const closed = PgSync.open(url, { schema });
    closed.close();
    expect(closed.closed).toBe(true);
    expect(() => closed.query('SELECT 1')).toThrow(/^cannot use the connection to PostgreSQL database .*: it was closed$/);

    const db = PgSync.open(url, { schema });
    await (db as unknown as { worker: Worker }).worker.terminate();
    await waitUntil(() => db.closed, 'the connection hears that its thread stopped');
    const error = thrown(() => db.query('SELECT 1'));
    expect(error.message).toMatch(/: the PostgreSQL thread stopped \(exit code 1\)$/);
    expect(error.message).not.toContain(SECRET);
  });

  it('delivers notifications on the event loop, and again after its LISTEN connection was lost', async () => {
    const db = PgSync.open(url, { schema });
    try {
      const heard: string[] = [];
      let gaps = 0;
      const stop = db.listen('weft_test_channel', (payload) => heard.push(payload), () => gaps++);
      db.query("SELECT pg_notify('weft_test_channel', $1)", ['först ✓']);
      await waitUntil(() => heard.length === 1, 'the first notification arrives');
      expect(heard).toEqual(['först ✓']);

      const { pool } = await pg.newSchema();
      const ended = await pool.query("SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = 'weft listen' AND query LIKE 'LISTEN%'");
      expect(ended.rows.length).toBeGreaterThan(0);
      await waitUntil(() => gaps > 0, 'the LISTEN connection is made again and the gap is told');
      db.query("SELECT pg_notify('weft_test_channel', 'second')");
      await waitUntil(() => heard.length === 2, 'a notification after the reconnect arrives');
      expect(heard).toEqual(['först ✓', 'second']);

      // Once stopped, the channel is not heard: a later notification on another channel arrives alone.
      stop();
      const other: string[] = [];
      db.listen('weft_other', (payload) => other.push(payload));
      db.batch([
        { text: "SELECT pg_notify('weft_test_channel', 'unheard')", values: [] },
        { text: "SELECT pg_notify('weft_other', 'heard')", values: [] },
      ]);
      await waitUntil(() => other.length === 1, 'the other channel is heard');
      expect(heard).toEqual(['först ✓', 'second']);
    } finally {
      db.close();
    }
  });

  it('does not keep an idle process alive', () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-pgsync-'));
    try {
      const script = join(dir, 'idle.ts');
      const module = new URL('../../engine/store/pg/pg-sync.ts', import.meta.url).href;
      writeFileSync(script, `import { PgSync } from ${JSON.stringify(module)};\nconst db = PgSync.open(${JSON.stringify(url)});\ndb.listen('idle', () => undefined);\nconsole.log(db.query('SELECT 41 + 1 AS n').rows[0].n);\n`);
      // The bound only stops a broken test (a process kept alive) from blocking the run forever.
      const child = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', cwd: new URL('../..', import.meta.url).pathname, timeout: WAIT_BOUND_MS });
      expect(child.signal).toBe(null);
      expect(child.stderr).toBe('');
      expect([child.status, child.stdout.trim()]).toEqual([0, '42']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The server-death test kills a cluster of its own (never WEFT_TEST_PG's): it needs the binaries, which CI installs. */
const NO_BINARIES = !pgInstalled() && process.env['CI'] !== 'true';

describe.skipIf(NO_BINARIES)(NO_BINARIES ? `skipped: ${pgMissing() ?? 'no PostgreSQL binaries'}` : 'PgSync when the server dies', () => {
  it('fails the waiting call clearly, keeps the process, and connects again once the server is back', async () => {
    const cluster = startCluster();
    try {
      const db = PgSync.open(withPassword(cluster.url), { timeoutMs: 60_000 });
      const firstSession = db.session;
      // Another process kills the server once the statement runs (this thread is blocked meanwhile).
      const asRoot = process.getuid?.() === 0;
      const pgCtl = `${asRoot ? 'runuser -u postgres -- ' : ''}${join(pgBin(), 'pg_ctl')} -D ${join(cluster.dir, 'data')} -w -m immediate stop`;
      const seen = `${join(pgBin(), 'psql')} -h ${cluster.dir} -U weft -d weft -Atc "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(%'"`;
      const killer = spawn('sh', ['-c', `until [ "$(${seen})" -gt 0 ] 2>/dev/null; do sleep 0.02; done; ${pgCtl}`], { stdio: 'ignore' });
      const error = thrown(() => db.query('SELECT pg_sleep(50)'));
      await new Promise((resolve) => killer.once('exit', resolve));
      expect(error).toBeInstanceOf(StoreError);
      expect(error.message).toMatch(/^cannot run a statement on PostgreSQL database "weft" on the socket in .*: (Connection terminated unexpectedly|terminating connection)/);
      expect(error.message).toContain('statement 1 of 1: SELECT pg_sleep(50)');
      expect(error.message).not.toContain(SECRET);
      // While the server is down a call fails at once, saying where.
      expect(() => db.query('SELECT 1')).toThrow(/^cannot connect to PostgreSQL database "weft" .*(ENOENT|ECONNREFUSED).*check that PostgreSQL is running there/);
      cluster.start();
      expect(db.query('SELECT 7::bigint AS n').rows).toEqual([{ n: 7 }]);
      expect(db.session).toBeGreaterThan(firstSession);
      db.close();
    } finally {
      cluster.stop();
    }
  });
});
