// Where a store is, as a command is told it (issue 25): a SQLite file, or a PostgreSQL database
// given as a URL (`postgres://` or `postgresql://`), whose tables are in the schema the URL's
// `schema` parameter names (the user's default schema otherwise). The one place that tells the two
// apart, and opens either as the store's connection (Db). A URL's password never appears in what
// this file says (describePgUrl).
import { resolve } from 'node:path';
import type { Db } from './db.ts';
import type { OpenMode } from './open-database.ts';
import { describePgUrl } from './pg/pg-connection.ts';
import { StoreError } from './store-error.ts';
import { PG_URL } from './store-text.ts';

export type StoreLocator = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string; schema?: string };

/**
 * The store `text` names: a PostgreSQL URL, else a file path (relative to `cwd`).
 * @example storeLocator('postgres://weft@db/weft?schema=team') // { kind: 'postgres', url: 'postgres://weft@db/weft', schema: 'team' }
 * @example storeLocator('.weft/weft.db', '/ws') // { kind: 'sqlite', path: '/ws/.weft/weft.db' }
 */
export function storeLocator(text: string, cwd: string): StoreLocator {
  if (!PG_URL.test(text)) return { kind: 'sqlite', path: resolve(cwd, text) };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new StoreError('bad-input', `${describePgUrl(text)}; give a URL such as postgres://user@host:5432/database (a socket: postgres://user@%2Fvar%2Frun%2Fpostgresql/database)`);
  }
  const schema = url.searchParams.get('schema');
  url.searchParams.delete('schema');
  if (schema !== null && !/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw new StoreError('bad-input', `the schema "${schema}" in ${describePgUrl(text)} is not a plain PostgreSQL name (letters, digits and _, not starting with a digit)`);
  }
  return { kind: 'postgres', url: url.toString(), ...(schema === null ? {} : { schema }) };
}

/** The store in messages: the file's path, or the PostgreSQL database without its password. */
export function describeStore(where: StoreLocator): string {
  if (where.kind === 'sqlite') return where.path;
  return `${describePgUrl(where.url)}${where.schema === undefined ? '' : `, schema ${where.schema}`}`;
}

/**
 * The store's connection. `create` makes a new store (or upgrades one); `write` and `read` need
 * one there already. SQLite's `read` is read-only; PostgreSQL's reads through the same connection.
 * @example const db = await openStoreDb(storeLocator(arg, cwd), 'read');
 */
export async function openStoreDb(where: StoreLocator, mode: OpenMode): Promise<Db> {
  if (where.kind === 'sqlite') return (await import('./open-database.ts')).openDatabase(where.path, { mode });
  const { openPgDb } = await import('./pg/open-pg-store.ts');
  return openPgDb(where.url, { ...(where.schema === undefined ? {} : { schema: where.schema }), create: mode === 'create' });
}

