// `--store URL` and $WEFT_STORE on the read commands (issue 25): a store made with `weft run` in a
// SQLite file and copied to a PostgreSQL schema with `weft store copy` reads the same through
// every read command, byte for byte, as the file does; `weft events --follow` follows a run there
// while `weft send` and `weft approve` with --store finish it; --store with --db, a URL given to --db or $WEFT_DB,
// an unreachable or malformed URL and an empty schema are refused with exit 2 and a message that
// never shows the URL's password.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failWithoutPgUnderCi, openTestPg, SKIP_PG, pgMissing, type TestPg } from '../fixtures/pg/test-pg.ts';
import { approvalWorkflow, storeWithRuns } from './store-copy-fixture.ts';
import { captureIo, weftInProcess } from './capture-io.ts';
import { main } from '../../engine/cli/main.ts';
import { runWeft, STACK_LINE, type WeftResult } from './run-weft.ts';
import { waitUntil } from '../wait-until.ts';

failWithoutPgUnderCi();

/** The test database's URL with a password in it (the test cluster trusts its user, so any will do). */
function withPassword(url: string, password: string): string {
  const u = new URL(url);
  if (u.password === '') u.password = password;
  return u.toString();
}

interface StatsJson {
  asOf?: string;
  runs: { finished: boolean; durationMs: number; waitingMs: number; steps: Record<string, { durationMs: number; waitingMs: number }> }[];
}

/**
 * A command's result without what depends on the moment it ran: `weft stats --json` says when it
 * was made (asOf), and how long an unfinished run has waited so far.
 */
function untimed(args: readonly string[], r: WeftResult): WeftResult {
  if (args[0] !== 'stats' || !args.includes('--json') || r.code !== 0) return r;
  const stats = JSON.parse(r.stdout) as StatsJson;
  delete stats.asOf;
  for (const run of stats.runs.filter((x) => !x.finished)) {
    run.durationMs = run.waitingMs = 0;
    for (const step of Object.values(run.steps)) step.durationMs = step.waitingMs = 0;
  }
  return { ...r, stdout: JSON.stringify(stats) };
}

describe.skipIf(SKIP_PG)(SKIP_PG ? `skipped: ${pgMissing() ?? ''}` : 'commands on a PostgreSQL store (--store, WEFT_STORE)', () => {
  let pg: TestPg;
  const dir = mkdtempSync(join(tmpdir(), 'weft-store-flag-'));
  const file = approvalWorkflow(dir);
  const from = join(dir, 'from.db');
  let url = '';
  let password = '';
  let finished = '';
  let waiting = '';

  beforeAll(async () => {
    pg = await openTestPg();
    ({ finished, waiting } = await storeWithRuns(file, from));
    url = withPassword(`${pg.url}?schema=${(await pg.newSchema()).name}`, 's3cret');
    password = new URL(url).password;
    expect(password).not.toBe('');
    const copied = await runWeft(['store', 'copy', from, url]);
    expect(copied.stderr).toBe('');
    expect(copied.code).toBe(0);
  });
  afterAll(async () => {
    await pg.close();
  });

  it('prints the same from every read command on the PostgreSQL copy as on the SQLite file', async () => {
    const reads: string[][] = [
      ['runs', '--json'],
      ['runs'],
      ['inspect', finished, '--json'],
      ['inspect', finished],
      ['inspect', waiting.slice(0, 8)],
      ['events', finished, '--json'],
      ['events', waiting],
      ['events', finished, '--after', '2', '--limit', '3', '--json'],
      ['events', finished, '--follow', '--json'],
      ['tasks', '--json'],
      ['tasks'],
      ['stats', 'approval', '--json'],
      ['stats'],
      ['compare', finished, waiting, '--json'],
      ['compare', finished, waiting],
      ['test', '--from-run', finished],
      ['diff', 'approval@1', file, '--json'],
      ['bulk', 'cancel', '--workflow', 'approval', '--dry-run', '--json'],
    ];
    for (const args of reads) {
      const onFile = await weftInProcess([...args, '--db', from], dir);
      const onPg = await weftInProcess([...args, '--store', url], dir);
      expect(onFile.stderr, args.join(' ')).toBe('');
      expect(onFile.stdout.length, args.join(' ')).toBeGreaterThan(0);
      expect(untimed(args, onPg), args.join(' ')).toEqual(untimed(args, onFile));
    }
    // Not an empty answer on both sides: the runs are there.
    const { runs } = JSON.parse((await weftInProcess(['runs', '--json', '--store', url], dir)).stdout) as { runs: { id: string; state: string }[] };
    expect(runs.map((r) => [r.id, r.state]).sort()).toEqual([[finished, 'succeeded'], [waiting, 'waiting']].sort());
  });

  it('takes the store from $WEFT_STORE when neither --store nor --db is given', async () => {
    const byFlag = await runWeft(['runs', '--json', '--store', url], dir);
    expect(byFlag.code).toBe(0);
    const byEnv = await runWeft(['runs', '--json'], dir, { env: { WEFT_STORE: url } });
    expect(byEnv).toEqual(byFlag);
    // $WEFT_STORE wins over $WEFT_DB.
    const overWeftDb = await runWeft(['runs', '--json'], dir, { env: { WEFT_STORE: url, WEFT_DB: join(dir, 'missing.db') } });
    expect(overWeftDb).toEqual(byFlag);
    // A flag wins over the environment: --db and --store name the file.
    const onFile = (await weftInProcess(['runs', '--json', '--db', from], dir)).stdout;
    for (const flag of ['--db', '--store']) {
      const flagOverEnv = await runWeft(['runs', '--json', flag, from], dir, { env: { WEFT_STORE: url } });
      expect(flagOverEnv.code).toBe(0);
      expect(flagOverEnv.stdout).toBe(onFile);
    }
    // An empty $WEFT_STORE is unset: $WEFT_DB is read.
    const emptyEnv = await runWeft(['inspect', finished], dir, { env: { WEFT_STORE: '', WEFT_DB: from } });
    expect(emptyEnv.code).toBe(0);
    expect(emptyEnv.stdout).toContain(finished);
  });

  it('follows a run on PostgreSQL with events --follow while send and approve --store finish it', async () => {
    const io = captureIo(dir);
    const following = main(['events', waiting, '--follow', '--json', '--store', url], io);
    const seen = (): string[] => io.out().split('\n').filter((l) => l !== '');
    const before = (await weftInProcess(['events', waiting, '--json', '--store', url], dir)).stdout;
    const already = (JSON.parse(before) as { events: unknown[] }).events.length;
    await waitUntil(() => seen().length === already, 'the follower printed the events already there');

    // Commands that change runs take --store too: each runs under an engine session of its own there.
    const sent = await runWeft(['send', 'payment.received', '--key', 'B2', '--store', url, '--json'], dir);
    expect(sent.stderr).toBe('');
    expect(JSON.parse(sent.stdout)).toMatchObject({ status: 'delivered', runId: waiting });
    const approved = await runWeft(['approve', waiting, 'review', '--store', url, '--json'], dir);
    expect(approved.stderr).toBe('');
    expect(JSON.parse(approved.stdout)).toEqual({ runId: waiting, state: 'succeeded' });
    expect(await following).toBe(0);
    expect(io.err()).toBe('');
    const all = JSON.parse((await weftInProcess(['events', waiting, '--json', '--store', url], dir)).stdout) as { events: unknown[] };
    expect(all.events.length).toBeGreaterThan(already);
    expect(seen().map((l) => JSON.parse(l) as unknown)).toEqual(all.events);
  });

  it('refuses --store with --db, and a PostgreSQL URL given as a SQLite file, with exit 2', async () => {
    const both = await weftInProcess(['runs', '--store', url, '--db', from], dir);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^weft runs: give the store once: --store URL\|PATH or --db FILE, not both\nusage: weft runs /);
    const acted = await weftInProcess(['pause', finished, '--store', url, '--db', from], dir);
    expect(acted.code).toBe(2);
    expect(acted.stderr).toContain('not both');
    const urlAsDb = await weftInProcess(['runs', '--db', url], dir);
    expect(urlAsDb.code).toBe(2);
    expect(urlAsDb.stderr).toContain('--db takes a SQLite store file; give a PostgreSQL URL with --store');
    const urlInWeftDb = await runWeft(['runs'], dir, { env: { WEFT_DB: url } });
    expect(urlInWeftDb.code).toBe(2);
    expect(urlInWeftDb.stderr).toBe('weft runs: $WEFT_DB holds a PostgreSQL URL, but WEFT_DB names a SQLite store file; set WEFT_STORE to the URL instead\n');
    for (const r of [both, acted, urlAsDb, urlInWeftDb]) expect(r.stderr).not.toContain(password);
  });

  it('says which PostgreSQL store it cannot use, without its password, and exits 2', async () => {
    // No server on that port.
    const away = await runWeft(['runs', '--store', 'postgres://weft:s3cret@127.0.0.1:1/weft'], dir);
    expect(away.code).toBe(2);
    expect(away.stderr).toMatch(/^weft runs: .*PostgreSQL database "weft" on 127\.0\.0\.1:1 as weft/);
    // Not a URL at all.
    const malformed = await runWeft(['inspect', finished, '--store', 'postgres://weft:s3cret@[::1/weft'], dir);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/^weft inspect: .*give a URL such as postgres:\/\/user@host:5432\/database/);
    // A schema that holds no store: not made by a read.
    const emptySchema = (await pg.newSchema()).name;
    const empty = withPassword(`${pg.url}?schema=${emptySchema}`, 's3cret');
    const none = await runWeft(['events', finished, '--store', empty], dir);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^weft events: PostgreSQL database .* holds no Weft store \(its schema is empty\); nothing was changed/);
    const tables = await runWeft(['tasks', '--store', empty], dir);
    expect(tables.code).toBe(2);
    // gc leaves a PostgreSQL store's artifacts alone: their folder may hold other stores' too.
    const gc = await weftInProcess(['gc', '--store', url], dir);
    expect(gc.code).toBe(2);
    expect(gc.stderr).toMatch(/^weft gc: the artifacts of a PostgreSQL store are not collected yet \(PostgreSQL database .*\): their folder \/.*artifacts may also hold other stores' artifacts, which it cannot see; nothing was removed\n$/);
    for (const r of [away, malformed, none, tables, gc]) {
      expect(r.stderr).not.toContain('s3cret');
      expect(r.stderr).not.toContain(STACK_LINE);
    }
  });
});
