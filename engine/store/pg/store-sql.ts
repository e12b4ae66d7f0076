// The store's SQL on PostgreSQL: translateSql (pg-dialect.ts) for the SQL of any SQLite database,
// and, before it, the few statements whose meaning is the store's own rather than SQLite's:
// - `PRAGMA data_version` (DaySpend: has another connection committed?) reads the log's head,
//   which every commit that writes events moves;
// - a table's presence in `sqlite_master` (modules that serve stores of older schemas) reads
//   PostgreSQL's catalogue of the current schema.
import { translateSql, type TranslatedSql } from './pg-dialect.ts';

const DATA_VERSION = /^\s*PRAGMA\s+data_version\s*;?\s*$/i;
const TABLE_PRESENT = /^\s*SELECT\s+(count\(\*\)|1)\s+FROM\s+sqlite_master\s+WHERE\s+type\s*=\s*'table'\s+AND\s+name\s*(=\s*'\w+'|IN\s*\(\s*'\w+'(?:\s*,\s*'\w+')*\s*\))\s*$/i;

/**
 * The PostgreSQL text of one of the store's statements.
 * @example storeSql('PRAGMA data_version') // { text: 'SELECT last FROM log_head WHERE id = 1', names: null }
 */
export function storeSql(sql: string): TranslatedSql {
  if (DATA_VERSION.test(sql)) return { text: 'SELECT last FROM log_head WHERE id = 1', names: null };
  const present = TABLE_PRESENT.exec(sql);
  if (present !== null) return { text: `SELECT ${present[1] ?? '1'} FROM information_schema.tables WHERE table_schema = current_schema() AND table_name ${present[2] ?? ''}`, names: null };
  return translateSql(sql);
}
