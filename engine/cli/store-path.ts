// Which store a command uses: --store URL|PATH, else --db FILE, else $WEFT_STORE (when not empty),
// else $WEFT_DB (when not empty), else .weft/weft.db in the workspace (the current folder, or
// `weft serve --workspace DIR`): a flag given beats the environment, and --store and --db together
// are refused. A PostgreSQL URL (postgres://… or postgresql://…, docs/postgres.md)
// is kept as given; a file path is made absolute from the current folder. --db and $WEFT_DB keep
// meaning a SQLite file. The one function that decides it: a command uses it for the store it opens
// itself and for the store whose `weft serve` it hands its command to, so both are the same.
import { resolve } from 'node:path';
import { isPgStoreText } from '../service/store-text.ts';
import { InputError } from './input-error.ts';
import { UsageError } from './usage-error.ts';

/** A command's store flags, as parseCommandArgs gives them (a command's whole `values` will do). */
export interface StoreFlags {
  readonly store?: string | undefined;
  readonly db?: string | undefined;
}

/**
 * The help lines of --store and --db, the same in every command that takes them, their text from
 * `column` (the column of the other flags' texts in that command's help); `store` names what the
 * store is for when it is not the command's only one.
 *
 * @example storeFlagsHelp(13) // '  --store URL|PATH\n             the store: a SQLite file or a PostgreSQL URL…'
 */
export function storeFlagsHelp(column: number, store = 'the store'): string {
  const flag = (name: string): string => (name.length + 4 <= column ? `  ${name}`.padEnd(column) : `  ${name}\n${' '.repeat(column)}`);
  const indent = ' '.repeat(column);
  return [
    `${flag('--store URL|PATH')}${store}: a SQLite file or a PostgreSQL URL`,
    `${indent}(postgres://user@host/db, docs/postgres.md); with neither flag, $WEFT_STORE`,
    `${flag('--db PATH')}a SQLite store file (default $WEFT_DB, else .weft/weft.db in this folder)`,
  ].join('\n');
}

/**
 * The store a command uses: a PostgreSQL URL as given, or the absolute path of a SQLite file.
 * `flags` may be --db's value alone (a string), as before --store existed.
 *
 * @example
 * storePath({}, '/home/ana/flows') // '/home/ana/flows/.weft/weft.db' when $WEFT_STORE and $WEFT_DB are unset
 * storePath({ store: 'postgres://weft@db/weft' }, '/x') // 'postgres://weft@db/weft'
 * storePath({ db: 'a.db' }, '/x', { WEFT_STORE: 'postgres://weft@db/weft' }) // '/x/a.db'
 */
export function storePath(flags: StoreFlags | string | undefined, cwd: string, env: NodeJS.ProcessEnv = process.env, workspace: string = cwd): string {
  const { store, db } = typeof flags === 'object' ? flags : { store: undefined, db: flags };
  if (store !== undefined && db !== undefined) throw new UsageError('give the store once: --store URL|PATH or --db FILE, not both');
  if (store === '') throw new UsageError('--store needs a PostgreSQL URL (postgres://user@host/database) or a store file');
  if (db !== undefined && isPgStoreText(db)) throw new UsageError('--db takes a SQLite store file; give a PostgreSQL URL with --store (or $WEFT_STORE)');
  const chosen = store ?? db ?? nonEmpty(env['WEFT_STORE']) ?? fileFromEnv(env['WEFT_DB']);
  if (chosen === undefined || chosen === '') return resolve(workspace, '.weft/weft.db');
  return isPgStoreText(chosen) ? chosen : resolve(cwd, chosen);
}

/**
 * The store storePath chose, as messages name it: its file, or its PostgreSQL database without the
 * password (the locator is loaded only for a URL).
 * @example await storeName('postgres://weft:pw@db/weft', '/ws') // 'PostgreSQL database "weft" on db:5432 as weft'
 */
export async function storeName(text: string, cwd: string): Promise<string> {
  if (!isPgStoreText(text)) return text;
  const { describeStoreText } = await import('../host/store-names.ts');
  return describeStoreText(text, cwd);
}

function nonEmpty(text: string | undefined): string | undefined {
  return text === '' ? undefined : text;
}

/** $WEFT_DB names a SQLite file; a URL there is refused (without repeating it: it may hold a password). */
function fileFromEnv(text: string | undefined): string | undefined {
  if (text !== undefined && isPgStoreText(text)) throw new InputError('$WEFT_DB holds a PostgreSQL URL, but WEFT_DB names a SQLite store file; set WEFT_STORE to the URL instead');
  return nonEmpty(text);
}
