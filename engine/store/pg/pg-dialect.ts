// The store's SQLite SQL as PostgreSQL's (issue 25): the store's modules keep their SQL, and a
// PostgreSQL connection shaped like better-sqlite3's (pg-db.ts) runs each statement through
// translateSql once (it memoises by text). What it rewrites:
// - parameters: `?` in order, or `@name`/`:name`/`$name` (a name used twice is one $n), as $1..$n;
// - INSERT OR IGNORE / OR REPLACE as ON CONFLICT; a target-less ON CONFLICT DO UPDATE gets the
//   table's primary key (pg-tables.ts) as its target, which PostgreSQL requires;
// - functions and operators (pg-expressions.ts): json_each, json_extract (a number where the SQL
//   computes with it), scalar max/min, ifnull, group_concat, instr, typeof, ROUND, CAST types,
//   LIKE (ASCII case-insensitive), IS [NOT] between values, ==, INDEXED BY, 64-bit literals;
// - results: a comparison selected as a value is 0/1 as on SQLite (PostgreSQL gives a boolean);
//   a subquery in FROM gets the alias PostgreSQL 15 requires; LIMIT -1 (or a negative bound
//   limit) is no limit; BEGIN's SQLite modes go; DO UPDATE reads the row's columns as table.column;
//   a selected expression keeps SQLite's column name; an INSERT INTO events returns its cursors
//   (the last is better-sqlite3's lastInsertRowid).
// A tokenizer (sql-tokens.ts) keeps string literals, quoted identifiers and comments untouched.
// What cannot mean the same on PostgreSQL (PRAGMA, sqlite_master, rowid, SQLite-only functions)
// throws an UntranslatableSql naming the statement: those sites take a branch of their own.
import { CLAUSE_WORDS, rewriteExpressions, UntranslatableSql } from './pg-expressions.ts';
import { pgTables } from './pg-tables.ts';
import { closeOf, isOp, isWord, joinTokens, significant, tokenize, type Token } from './sql-tokens.ts';

export { UntranslatableSql } from './pg-expressions.ts';

export interface TranslatedSql {
  /** The statement(s) in PostgreSQL's SQL, with $1..$n placeholders. */
  text: string;
  /** null when the SQL binds `?` in order; else the parameter names (without @, : or $) in $n order. */
  names: readonly string[] | null;
}

/** SQLite's own tables and the row id, which PostgreSQL has not. */
const SQLITE_ONLY_NAMES = new Set(['sqlite_master', 'sqlite_schema', 'sqlite_temp_master', 'sqlite_sequence', 'sqlite_stat1', 'rowid', '_rowid_', 'oid']);

/**
 * The PostgreSQL text of a statement (or of several, separated by `;`) of the store's SQLite SQL.
 * Throws UntranslatableSql, naming the statement, for SQL with no PostgreSQL meaning.
 * @example
 * translateSql('SELECT value FROM json_each(?)')
 * // { text: 'SELECT value FROM json_array_elements_text(CAST($1 AS json)) AS json_each(value)', names: null }
 */
export function translateSql(sqliteSql: string): TranslatedSql {
  try {
    const tokens = significant(tokenize(sqliteSql));
    const { tokens: numbered, names } = numberParameters(tokens);
    const statements: Token[][] = [[]];
    for (const t of numbered) {
      if (isOp(t, ';')) statements.push([]);
      else statements[statements.length - 1]?.push(t);
    }
    const text = statements
      .filter((s) => s.length > 0)
      .map((s) => joinTokens(translateStatement(s)))
      .join('; ');
    return { text, names };
  } catch (e) {
    if (!(e instanceof UntranslatableSql)) throw e;
    const shown = sqliteSql.replace(/\s+/g, ' ').trim();
    throw new UntranslatableSql(`cannot run on PostgreSQL: ${e.message}; the statement: ${shown.length > 200 ? `${shown.slice(0, 200)}…` : shown}`);
  }
}

/** One statement's tokens, translated. */
function translateStatement(input: Token[]): Token[] {
  const first = input[0];
  if (isWord(first, 'PRAGMA')) throw new UntranslatableSql('PRAGMA is SQLite\'s own');
  for (const t of input) {
    if (t.kind === 'word' && SQLITE_ONLY_NAMES.has(t.text.toLowerCase())) throw new UntranslatableSql(`${t.text} is SQLite's own`);
  }
  if (isWord(first, 'BEGIN')) return [first as Token]; // DEFERRED, IMMEDIATE, EXCLUSIVE: PostgreSQL locks rows as it writes them
  let tokens = rewriteInsert(nameExpressionColumns(input));
  tokens = limitAll(tokens);
  tokens = rewriteExpressions(tokens);
  tokens = aliasSubqueries(tokens);
  return selectedComparisonsAsIntegers(tokens);
}

/** `?`, `?NNN`, `@a`, `:a`, `$a` as $n; the names in $n order when named. */
function numberParameters(tokens: readonly Token[]): { tokens: Token[]; names: string[] | null } {
  const names: string[] = [];
  let positional = 0;
  let numbered = false;
  const out = tokens.map((t): Token => {
    if (t.kind !== 'param') return t;
    if (t.text === '?') return { kind: 'param', text: `$${++positional}` };
    if (/^\?[0-9]+$/.test(t.text)) {
      numbered = true;
      return { kind: 'param', text: `$${t.text.slice(1)}` };
    }
    const name = t.text.slice(1);
    let k = names.indexOf(name);
    if (k < 0) k = names.push(name) - 1;
    return { kind: 'param', text: `$${k + 1}` };
  });
  if (names.length > 0 && (positional > 0 || numbered)) throw new UntranslatableSql('it mixes named and positional parameters');
  if (positional > 0 && numbered) throw new UntranslatableSql('it mixes ? and ?NNN parameters');
  return { tokens: out, names: names.length > 0 ? names : null };
}

const toks = (sql: string): Token[] => significant(tokenize(sql));

/**
 * The tables whose key SQLite makes the rowid (an INTEGER PRIMARY KEY), by that column: an INSERT
 * into one returns it, so the connection can give the last as better-sqlite3's lastInsertRowid
 * (event-log.ts numbers a batch's events by the last cursor of its INSERT).
 */
const ROWID_COLUMNS: Readonly<Record<string, string>> = { events: 'cursor' };

/** INSERT OR IGNORE / OR REPLACE / REPLACE INTO as ON CONFLICT; a target-less DO UPDATE gets the primary key. */
function rewriteInsert(input: Token[]): Token[] {
  let tokens = input;
  const at = tokens.findIndex((t) => isWord(t, 'INSERT', 'REPLACE'));
  if (at < 0 || !(at === 0 || isOp(tokens[at - 1], ')'))) return tokens; // only a statement's own INSERT (after a WITH)
  let mode: 'ignore' | 'replace' | undefined;
  if (isWord(tokens[at], 'REPLACE')) mode = 'replace';
  else if (isWord(tokens[at + 1], 'OR')) {
    const how = tokens[at + 2]?.text.toUpperCase();
    if (how === 'IGNORE') mode = 'ignore';
    else if (how === 'REPLACE') mode = 'replace';
    else throw new UntranslatableSql(`INSERT OR ${how ?? ''} has no PostgreSQL translation`);
  }
  if (mode !== undefined) tokens = [...tokens.slice(0, at), { kind: 'word', text: 'INSERT' }, ...tokens.slice(isWord(tokens[at], 'REPLACE') ? at + 1 : at + 3)];
  const into = tokens.findIndex((t, i) => i > at && isWord(t, 'INTO'));
  const tableToken = tokens[into + 1];
  const table = tableToken === undefined ? undefined : pgTables().get(tableToken.text.replace(/"/g, ''));
  const key = (): string => {
    if (table === undefined || table.primaryKey.length === 0) throw new UntranslatableSql(`the conflict target of an upsert into ${tableToken?.text ?? '?'} is not known (a table of pg-schema.ts with a primary key)`);
    return `(${table.primaryKey.join(', ')})`;
  };
  if (mode !== undefined) {
    let end = tokens.findIndex((t, i) => i > into && isWord(t, 'RETURNING'));
    if (end < 0) end = tokens.length;
    let clause = 'ON CONFLICT DO NOTHING';
    if (mode === 'replace') {
      const listed = isOp(tokens[into + 2], '(') ? tokens.slice(into + 3, closeOf(tokens, into + 2)).filter((t) => !isOp(t, ',')).map((t) => t.text) : [...(table?.columns ?? [])];
      const set = listed.filter((c) => !table?.primaryKey.includes(c)).map((c) => `${c} = excluded.${c}`);
      clause = set.length === 0 ? `ON CONFLICT ${key()} DO NOTHING` : `ON CONFLICT ${key()} DO UPDATE SET ${set.join(', ')}`;
    }
    tokens = [...tokens.slice(0, end), ...toks(clause), ...tokens.slice(end)];
  }
  const conflict = tokens.findIndex((t, i) => isWord(t, 'CONFLICT') && isWord(tokens[i - 1], 'ON') && isWord(tokens[i + 1], 'DO') && isWord(tokens[i + 2], 'UPDATE'));
  if (conflict >= 0) tokens = [...tokens.slice(0, conflict + 1), ...toks(key()), ...tokens.slice(conflict + 1)];
  const update = tokens.findIndex((t, i) => isWord(t, 'UPDATE') && isWord(tokens[i - 1], 'DO') && isWord(tokens[i + 1], 'SET'));
  if (update >= 0 && table !== undefined && tableToken !== undefined) tokens = qualifyColumns(tokens, update + 2, table.columns, tableToken.text);
  const rowid = tableToken === undefined ? undefined : ROWID_COLUMNS[tableToken.text];
  if (rowid !== undefined && !tokens.some((t) => isWord(t, 'RETURNING'))) tokens = [...tokens, ...toks(`RETURNING ${rowid}`)];
  return tokens;
}

/**
 * In DO UPDATE SET … [WHERE …] from `from` on, a column of the target table read in an expression
 * as `table.column`: SQLite reads a bare name as the row in the table, PostgreSQL calls it
 * ambiguous beside `excluded`. The columns assigned (`SET a = …, b = …`) stay bare.
 */
function qualifyColumns(tokens: Token[], from: number, columns: readonly string[], table: string): Token[] {
  const out = tokens.slice(0, from);
  let depth = 0;
  for (let i = from; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (isOp(t, '(')) depth++;
    else if (isOp(t, ')')) depth--;
    const assigned = depth === 0 && isOp(tokens[i + 1], '=') && (isWord(tokens[i - 1], 'SET') || isOp(tokens[i - 1], ','));
    if (t.kind === 'word' && columns.includes(t.text) && !isOp(tokens[i - 1], '.') && !isOp(tokens[i + 1], '(') && !assigned) out.push(...toks(`${table}.${t.text}`));
    else out.push(t);
    if (isWord(t, 'RETURNING')) return [...out, ...tokens.slice(i + 1)];
  }
  return out;
}

/** SQLite's `LIMIT -1` (no limit) as LIMIT ALL; `LIMIT a, b` is refused (its order is SQLite's own). */
function limitAll(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    out.push(t);
    if (!isWord(t, 'LIMIT')) continue;
    if (isOp(tokens[i + 1], '-') && tokens[i + 2]?.kind === 'number') {
      out.push({ kind: 'word', text: 'ALL' });
      i += 2;
    } else if (tokens[i + 1]?.kind === 'param') {
      // SQLite reads a negative limit as none; PostgreSQL refuses one, and reads NULL as none.
      const p = (tokens[i + 1] as Token).text;
      out.push(...toks(`CASE WHEN CAST(${p} AS bigint) < 0 THEN NULL ELSE CAST(${p} AS bigint) END`));
      i += 1;
    }
    const after = tokens[i + 2];
    if (isOp(after, ',')) throw new UntranslatableSql('LIMIT offset, count is SQLite\'s order: write LIMIT count OFFSET offset');
  }
  return out;
}

/** A subquery in FROM or JOIN without an alias gets one (PostgreSQL 15 requires it). */
function aliasSubqueries(tokens: Token[]): Token[] {
  const out = [...tokens];
  let n = 0;
  for (let i = out.length - 1; i > 0; i--) {
    if (!isOp(out[i], '(') || !isWord(out[i - 1], 'FROM', 'JOIN') || !isWord(out[i + 1], 'SELECT', 'WITH', 'VALUES')) continue;
    const close = closeOf(out, i);
    const after = out[close + 1];
    const aliased = isWord(after, 'AS') || after?.kind === 'quoted' || (after?.kind === 'word' && !isWord(after, ...CLAUSE_WORDS));
    if (!aliased) out.splice(close + 1, 0, ...toks(`AS _sub${++n}`));
  }
  return out;
}

/** The longest identifier PostgreSQL keeps whole (NAMEDATALEN - 1). */
const PG_NAME_BYTES = 63;

/**
 * An item of a top-level select list that is an expression without an alias gets its SQLite name:
 * SQLite names such a column by its text (`SELECT 1` has a column "1"), PostgreSQL by its function
 * or "?column?"; a row read as an object has that name as its key.
 */
function nameExpressionColumns(tokens: Token[]): Token[] {
  let out = tokens;
  for (const [from, to] of selectItems(tokens, 0).reverse()) {
    const item = out.slice(from, to);
    const bare = item.length === 1 ? item[0]?.kind === 'word' || item[0]?.kind === 'quoted' || isOp(item[0], '*') : item.length === 3 && isOp(item[1], '.');
    if (bare || isWord(out[to - 2], 'AS') || item.length === 0) continue;
    const name = joinTokens(item);
    // PostgreSQL cuts a name past 63 bytes (with a notice): such a column is read by position.
    if (Buffer.byteLength(name) > PG_NAME_BYTES) continue;
    out = [...out.slice(0, to), ...toks(`AS "${name.replace(/"/g, '""')}"`), ...out.slice(to)];
  }
  return out;
}

/** The [from, to) ranges of the items of the select list whose SELECT is at `s`, or of the statement's first SELECT at depth 0. */
function selectItems(tokens: readonly Token[], s: number): [number, number][] {
  let at = s;
  if (!isWord(tokens[at], 'SELECT')) {
    if (!isWord(tokens[0], 'SELECT')) return []; // only a plain SELECT statement's own list
    at = 0;
  }
  let start = at + 1;
  if (isWord(tokens[start], 'DISTINCT', 'ALL')) start++;
  const items: [number, number][] = [];
  let depth = 0;
  let from = start;
  let end = start;
  for (; end < tokens.length; end++) {
    const t = tokens[end];
    if (isOp(t, '(') || isWord(t, 'CASE')) depth++;
    else if (isOp(t, ')') || isWord(t, 'END')) {
      if (depth === 0) break;
      depth--;
    } else if (depth === 0 && isWord(t, ...LIST_END)) break;
    else if (depth === 0 && isOp(t, ',')) {
      items.push([from, end]);
      from = end + 1;
    }
  }
  items.push([from, end]);
  return items;
}

/** Words at the top level of a select item that make it a comparison (a boolean on PostgreSQL). */
const PREDICATE_WORDS = ['IS', 'IN', 'LIKE', 'ILIKE', 'BETWEEN', 'EXISTS', 'NOT', 'AND', 'OR'];
const PREDICATE_OPS = ['=', '<>', '!=', '<', '<=', '>', '>='];
/** Words that end a select list. */
const LIST_END = ['ON', 'RETURNING', 'FROM', 'WHERE', 'GROUP', 'ORDER', 'LIMIT', 'UNION', 'INTERSECT', 'EXCEPT', 'HAVING', 'WINDOW', 'OFFSET'];

/** Each select item that is a comparison becomes CAST(… AS integer): 0 or 1, as SQLite gives it. */
function selectedComparisonsAsIntegers(tokens: Token[]): Token[] {
  let out = tokens;
  for (let s = out.length - 1; s >= 0; s--) {
    if (!isWord(out[s], 'SELECT')) continue;
    for (const [f, t] of selectItems(out, s).reverse()) {
      const aliasAt = isWord(out[t - 2], 'AS') ? t - 2 : t;
      if (!isPredicate(out, f, aliasAt)) continue;
      out = [...out.slice(0, f), ...toks('CAST(('), ...out.slice(f, aliasAt), ...toks(') AS integer)'), ...out.slice(aliasAt)];
    }
  }
  return out;
}

function isPredicate(tokens: readonly Token[], from: number, to: number): boolean {
  let depth = 0;
  for (let i = from; i < to; i++) {
    const t = tokens[i];
    if (isOp(t, '(') || isWord(t, 'CASE')) depth++;
    else if (isOp(t, ')') || isWord(t, 'END')) depth--;
    else if (depth === 0 && (isOp(t, ...PREDICATE_OPS) || isWord(t, ...PREDICATE_WORDS))) return true;
  }
  return false;
}
