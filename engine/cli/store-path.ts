// Which store a command uses: --store URL|PATH, else $WEFT_STORE (when not empty), else --db FILE,
// else $WEFT_DB (when not empty), else .weft/weft.db in the workspace (the current folder, or
// `weft serve --workspace DIR`). A PostgreSQL URL (postgres://… or postgresql://…, docs/postgres.md)
// is kept as given; a file path is made absolute from the current folder. --db and $WEFT_DB keep
// meaning a SQLite file. The one function that decides it: a command uses it for the store it opens
// itself and for the store whose `weft serve` it hands its command to, so both are the same.
import { resolve } from 'node:path';
import { isPgUrl } from '../service/store-text.ts';
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
 * @example storeFlagsHelp(13) // '  --store URL|PATH\n             the store: a postgres://… URL …'
 */
export function storeFlagsHelp(column: number, store = 'the store'): string {
  const flag = (name: string): string => (name.length + 4 <= column ? `  ${name}`.padEnd(column) : `  ${name}\n${' '.repeat(column)}`);
  const indent = ' '.repeat(column);
  return [
    `${flag('--store URL|PATH')}${store}: a SQLite file or a PostgreSQL URL`,
    `${indent}(postgres://user@host/db, docs/postgres.md); default $WEFT_STORE, else --db`,
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
 */
export function storePath(flags: StoreFlags | string | undefined, cwd: string, env: NodeJS.ProcessEnv = process.env, workspace: string = cwd): string {
  const { store, db } = typeof flags === 'object' ? flags : { store: undefined, db: flags };
  if (store !== undefined && db !== undefined) throw new UsageError('give the store once: --store URL|PATH or --db FILE, not both');
  if (store === '') throw new UsageError('--store needs a PostgreSQL URL (postgres://user@host/database) or a store file');
  if (db !== undefined && isPgUrl(db)) throw new UsageError('--db takes a SQLite store file; give a PostgreSQL URL with --store (or $WEFT_STORE)');
  const chosen = store ?? nonEmpty(env['WEFT_STORE']) ?? db ?? fileFromEnv(env['WEFT_DB']);
  if (chosen === undefined || chosen === '') return resolve(workspace, '.weft/weft.db');
  return isPgUrl(chosen) ? chosen : resolve(cwd, chosen);
}

function nonEmpty(text: string | undefined): string | undefined {
  return text === '' ? undefined : text;
}

/** $WEFT_DB names a SQLite file; a URL there is refused (without repeating it: it may hold a password). */
function fileFromEnv(text: string | undefined): string | undefined {
  if (text !== undefined && isPgUrl(text)) throw new InputError('$WEFT_DB holds a PostgreSQL URL, but WEFT_DB names a SQLite store file; set WEFT_STORE to the URL instead');
  return nonEmpty(text);
}
