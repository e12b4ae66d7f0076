// Which store a command uses (engine/cli/store-path.ts): --store, else --db, else $WEFT_STORE,
// else $WEFT_DB, else the workspace's .weft/weft.db; a PostgreSQL URL as given, a file made
// absolute; --store with --db, an empty --store, and a URL given where a SQLite file is meant are
// refused. And the --store/--db help lines every command shows.
import { describe, expect, it } from 'vitest';
import { storeFlagsHelp, storeName, storePath } from '../../engine/cli/store-path.ts';
import { InputError } from '../../engine/cli/input-error.ts';
import { UsageError } from '../../engine/cli/usage-error.ts';

const URL_A = 'postgres://weft:s3cret@db.example:5433/weft?schema=team';
const URL_B = 'postgresql://ops@%2Fvar%2Frun%2Fpostgresql/weft';

describe('storePath', () => {
  const cwd = '/home/ana/flows';
  it('defaults to .weft/weft.db in the workspace', () => {
    expect(storePath({}, cwd, {})).toBe('/home/ana/flows/.weft/weft.db');
    expect(storePath(undefined, cwd, {}, '/srv/ws')).toBe('/srv/ws/.weft/weft.db');
    expect(storePath({}, cwd, { WEFT_STORE: '', WEFT_DB: '' })).toBe('/home/ana/flows/.weft/weft.db');
  });

  it('takes --store, then --db, then $WEFT_STORE, then $WEFT_DB', () => {
    const env = { WEFT_STORE: URL_B, WEFT_DB: 'env.db' };
    expect(storePath({ store: URL_A }, cwd, env)).toBe(URL_A);
    expect(storePath({ store: 'flag.db' }, cwd, env)).toBe('/home/ana/flows/flag.db');
    expect(storePath({ db: 'flag.db' }, cwd, env)).toBe('/home/ana/flows/flag.db');
    expect(storePath({}, cwd, env)).toBe(URL_B);
    expect(storePath({}, cwd, { WEFT_STORE: '', WEFT_DB: 'env.db' })).toBe('/home/ana/flows/env.db');
    expect(storePath({}, cwd, { WEFT_DB: 'env.db' })).toBe('/home/ana/flows/env.db');
    expect(storePath({}, cwd, { WEFT_STORE: '../other/weft.db' })).toBe('/home/ana/other/weft.db');
  });

  it('keeps a PostgreSQL URL as given, whatever its case, and resolves a file from the current folder', () => {
    expect(storePath({ store: 'POSTGRES://weft@db/weft' }, cwd, {})).toBe('POSTGRES://weft@db/weft');
    expect(storePath({ store: '/abs/weft.db' }, cwd, {})).toBe('/abs/weft.db');
    expect(storePath({ store: 'postgres-notes.db' }, cwd, {})).toBe('/home/ana/flows/postgres-notes.db');
    expect(storePath({ db: 'x.db' }, cwd, {}, '/srv/ws')).toBe('/home/ana/flows/x.db');
  });

  it('takes --db alone as a string, as callers from before --store do', () => {
    expect(storePath('old.db', cwd, {})).toBe('/home/ana/flows/old.db');
    expect(storePath('old.db', cwd, { WEFT_STORE: URL_A })).toBe('/home/ana/flows/old.db');
    expect(storePath(undefined, cwd, { WEFT_STORE: URL_A })).toBe(URL_A);
  });

  it('refuses both flags, an empty --store, and a URL where a SQLite file is meant, without repeating the URL', () => {
    expect(() => storePath({ store: URL_A, db: 'x.db' }, cwd, {})).toThrow(new UsageError('give the store once: --store URL|PATH or --db FILE, not both'));
    expect(() => storePath({ store: '', db: undefined }, cwd, {})).toThrow(UsageError);
    expect(() => storePath({ db: URL_A }, cwd, {})).toThrow(new UsageError('--db takes a SQLite store file; give a PostgreSQL URL with --store (or $WEFT_STORE)'));
    expect(() => storePath({}, cwd, { WEFT_DB: URL_A })).toThrow(InputError);
    expect(() => storePath({}, cwd, { WEFT_DB: URL_A })).toThrow(/set WEFT_STORE to the URL instead$/);
    // $WEFT_STORE wins, so a URL left in $WEFT_DB is not read then.
    expect(storePath({}, cwd, { WEFT_STORE: URL_B, WEFT_DB: URL_A })).toBe(URL_B);
  });
});

describe('storeName', () => {
  it('names a file by its path, and a PostgreSQL store without its password', async () => {
    expect(await storeName('/ws/.weft/weft.db', '/')).toBe('/ws/.weft/weft.db');
    expect(await storeName(URL_A, '/')).toBe('PostgreSQL database "weft" on db.example:5433 as weft, schema team');
  });
});

describe('storeFlagsHelp', () => {
  it('aligns its texts at the column given, or below the flag when the column is narrower', () => {
    expect(storeFlagsHelp(20).split('\n')).toEqual([
      '  --store URL|PATH  the store: a SQLite file or a PostgreSQL URL',
      '                    (postgres://user@host/db, docs/postgres.md); with neither flag, $WEFT_STORE',
      '  --db PATH         a SQLite store file (default $WEFT_DB, else .weft/weft.db in this folder)',
    ]);
    const narrow = storeFlagsHelp(13, 'the store for WORKFLOW@VERSION').split('\n');
    expect(narrow[0]).toBe('  --store URL|PATH');
    expect(narrow[1]).toBe(`${' '.repeat(13)}the store for WORKFLOW@VERSION: a SQLite file or a PostgreSQL URL`);
    expect(narrow[3]).toBe(`  --db PATH  a SQLite store file (default $WEFT_DB, else .weft/weft.db in this folder)`);
    for (const line of narrow) expect(line.length).toBeLessThanOrEqual(100);
  });
});
