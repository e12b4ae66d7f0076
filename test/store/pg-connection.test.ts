// A PostgreSQL store's connections (engine/store/pg/pg-connection.ts) on a real server: bigint
// reads as an exact Number or a clear error, a server that drops a connection does not end the
// process, and no message about a store carries its password. The process lane runs it
// (test/lanes.ts): it starts a PostgreSQL cluster.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPg, describePgUrl, openPgPool, parseInt8, pgFailure } from '../../engine/store/pg/pg-connection.ts';
import { failWithoutPgUnderCi, openTestPg, pgMissing, SKIP_PG, type TestPg } from '../fixtures/pg/test-pg.ts';
import { waitUntil } from '../wait-until.ts';

const SECRET = 's3cret-Pa55';

/** A loopback port nothing listens on (taken, then given back). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('PostgreSQL URLs in messages', () => {
  it.each([
    [`postgres://weft:${SECRET}@db.example:5433/prod`, 'PostgreSQL database "prod" on db.example:5433 as weft'],
    ['postgres://weft@%2Ftmp%2Fpg/weft_test', 'PostgreSQL database "weft_test" on the socket in /tmp/pg (port 5432) as weft'],
    [`postgres:///weft_ci?host=/run/pg&user=ci&password=${SECRET}`, 'PostgreSQL database "weft_ci" on the socket in /run/pg (port 5432) as ci'],
    [`postgresql://u:${SECRET}@127.0.0.1/`, 'PostgreSQL database "u" on 127.0.0.1:5432 as u'],
    [`not a url ${SECRET}`, 'a PostgreSQL URL that cannot be read (expected postgres://user@host:port/database)'],
  ])('%s is described as %s', (url, said) => {
    expect(describePgUrl(url)).toBe(said);
  });

  it('scrubs the password from what the driver said, plain and percent-encoded', () => {
    const url = `postgres://weft:${encodeURIComponent(`${SECRET}/x`)}@db.example/prod`;
    const message = pgFailure(new Error(`failed for ${SECRET}/x and ${encodeURIComponent(`${SECRET}/x`)} in ${url}`), url, 'connect to').message;
    expect(message).not.toContain(SECRET);
    expect(message).toMatch(/^cannot connect to PostgreSQL database "prod" on db.example:5432 as weft: failed for \*\*\* and \*\*\* in /);
  });

  it('reads bigints exactly up to 2^53 - 1 and refuses beyond', () => {
    expect(parseInt8('9007199254740991')).toBe(Number.MAX_SAFE_INTEGER);
    expect(parseInt8('-42')).toBe(-42);
    expect(() => parseInt8('9007199254740993')).toThrow(/bigint 9007199254740993, beyond what Weft reads exactly/);
  });
});

failWithoutPgUnderCi();

describe.skipIf(SKIP_PG)(SKIP_PG ? `skipped: ${pgMissing() ?? ''}` : 'PostgreSQL connections on a real server', () => {
  let pg: TestPg;
  beforeAll(async () => {
    pg = await openTestPg();
  });
  afterAll(async () => {
    await pg?.close();
  });

  it('gives bigint as a Number, and a query reading one past 2^53 fails clearly instead of rounding', async () => {
    const pool = openPgPool(pg.url);
    try {
      const { rows } = await pool.query('SELECT 9007199254740991::bigint AS big, count(*) AS n, 7::integer AS small FROM (VALUES (1), (2)) v(x)');
      expect(rows).toEqual([{ big: Number.MAX_SAFE_INTEGER, n: 2, small: 7 }]);
      await expect(pool.query('SELECT 9007199254740993::bigint AS big')).rejects.toThrow(/beyond what Weft reads exactly/);
      // The pool is still usable afterwards.
      expect((await pool.query('SELECT 1::bigint AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
    }
  });

  it('tells the callback, and keeps the process, when the server ends an idle connection', async () => {
    const errors: Error[] = [];
    const pool = openPgPool(pg.url, { onError: (e) => errors.push(e), max: 1 });
    const killer = openPgPool(pg.url, { max: 1 });
    try {
      const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const pid = rows[0]?.pid;
      expect(typeof pid).toBe('number');
      await killer.query('SELECT pg_terminate_backend($1)', [pid]);
      await waitUntil(() => errors.length > 0, 'the pool reports the terminated connection');
      expect(errors[0]?.message).toMatch(/terminat/);
      // The next query gets a new connection.
      const again = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      expect(again.rows[0]?.pid).not.toBe(pid);
    } finally {
      await pool.end();
      await killer.end();
    }
  });

  it('names the place and never the password when nothing listens there (socket and TCP)', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'weft-nopg-'));
    try {
      const socket = `postgres://weft:${SECRET}@${encodeURIComponent(empty)}/nowhere`;
      const socketError = await connectPg(socket).then(() => undefined, (e: unknown) => e);
      expect(socketError).toBeInstanceOf(Error);
      const socketMessage = (socketError as Error).message;
      expect(socketMessage).toContain(`cannot connect to PostgreSQL database "nowhere" on the socket in ${empty} (port 5432) as weft: `);
      expect(socketMessage).toContain('check that PostgreSQL is running there');
      expect(socketMessage).not.toContain(SECRET);

      const port = await freePort();
      const tcp = `postgres://weft:${SECRET}@127.0.0.1:${port}/nowhere`;
      const tcpMessage = await connectPg(tcp).then(() => '', (e: unknown) => (e as Error).message);
      expect(tcpMessage).toContain(`cannot connect to PostgreSQL database "nowhere" on 127.0.0.1:${port} as weft: `);
      expect(tcpMessage).toContain('ECONNREFUSED');
      expect(tcpMessage).not.toContain(SECRET);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('names the database and not the password when the database does not exist', async () => {
    const url = new URL(pg.url);
    url.password = SECRET;
    url.pathname = '/no_such_db';
    const message = await connectPg(url.toString()).then(() => '', (e: unknown) => (e as Error).message);
    expect(message).toMatch(/^cannot connect to PostgreSQL database "no_such_db" on .*: database "no_such_db" does not exist; check that/);
    expect(message).not.toContain(SECRET);
  });
});
