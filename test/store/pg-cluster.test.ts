// The throwaway cluster of the PostgreSQL tests (test/fixtures/pg/cluster.ts), which the crash
// tests will kill and restart: a crash (stop -m immediate) keeps what was committed, a pool
// reports the lost server without ending the process and reconnects after start(), and stop()
// leaves nothing behind. The process lane runs it (test/lanes.ts): it starts its own cluster,
// never WEFT_TEST_PG's, which other files share.
import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { openPgPool } from '../../engine/store/pg/pg-connection.ts';
import { pgInstalled, startCluster, type PgCluster } from '../fixtures/pg/cluster.ts';
import { failWithoutPgUnderCi, pgMissing } from '../fixtures/pg/test-pg.ts';
import { waitUntil } from '../wait-until.ts';

const NO_BINARIES = !pgInstalled() && process.env['CI'] !== 'true';

describe('the test cluster', () => {
  it('says what is missing when there is no initdb', () => {
    expect(() => startCluster({ bin: '/nonexistent/pg/bin' })).toThrow(
      "cannot start a PostgreSQL cluster: no initdb in /nonexistent/pg/bin; install Debian's postgresql (apt-get install postgresql) or set WEFT_PG_BIN",
    );
  });
});

failWithoutPgUnderCi();

describe.skipIf(NO_BINARIES)(NO_BINARIES ? `skipped: ${pgMissing() ?? 'no PostgreSQL binaries'}` : 'a cluster of its own, crashed and restarted', () => {
  let cluster: PgCluster | undefined;
  afterAll(() => cluster?.stop());

  it('keeps committed rows across a crash, and a pool reconnects after the restart', async () => {
    cluster = startCluster({ database: 'crash_test' });
    expect(cluster.url).toBe(`postgres://weft@${encodeURIComponent(cluster.dir)}/crash_test`);
    const errors: Error[] = [];
    const pool = openPgPool(cluster.url, { onError: (e) => errors.push(e), max: 1 });
    try {
      await pool.query('CREATE TABLE kept (n bigint PRIMARY KEY)');
      await pool.query('INSERT INTO kept SELECT generate_series(1, 100)');
      cluster.stopImmediate();
      await waitUntil(() => errors.length > 0, 'the pool reports the server gone');
      await expect(pool.query('SELECT 1')).rejects.toThrow(/ENOENT|ECONNREFUSED|connect/);
      cluster.start();
      const { rows } = await pool.query('SELECT count(*) AS n, max(n) AS top FROM kept');
      expect(rows).toEqual([{ n: 100, top: 100 }]);
    } finally {
      await pool.end();
    }
    const dir = cluster.dir;
    cluster.stop();
    cluster.stop();
    expect(existsSync(dir)).toBe(false);
  });
});
