// The expression rewrites of the dialect (pg-dialect.ts): SQLite's functions, operators and casts
// as PostgreSQL spells them, with SQLite's typing where the two differ (an integer literal is 64
// bits; json_extract gives a number where the SQL computes with it and text elsewhere; ROUND
// rounds half away from zero). Works on significant tokens (sql-tokens.ts) whose parameters are
// numbered already, so repeating an argument (typeof) repeats its $n.
import { argsOf, closeOf, isOp, isWord, joinTokens, significant, textOf, tokenize, type Token } from './sql-tokens.ts';

/** SQLite's type names in CAST, as PostgreSQL's (SQLite's INTEGER holds 64 bits). */
const CAST_TYPES: Record<string, string> = { INTEGER: 'bigint', INT: 'bigint', BIGINT: 'bigint', REAL: 'double precision', TEXT: 'text', BLOB: 'bytea', NUMERIC: 'numeric' };

/** Functions that exist only on SQLite, or whose meaning differs beyond translating: refused by name. */
const REFUSED_FUNCTIONS = new Set(['strftime', 'datetime', 'julianday', 'date', 'time', 'unixepoch', 'printf', 'format', 'glob', 'json_tree', 'json_set', 'json_insert', 'json_replace', 'json_remove', 'json_patch', 'json_group_array', 'json_group_object', 'last_insert_rowid', 'changes', 'total_changes', 'randomblob', 'zeroblob', 'likelihood', 'unlikely']);

const ARITHMETIC = ['*', '/', '+', '-', '%'];
const COMPARISON = ['=', '==', '<>', '!=', '<', '<=', '>', '>='];

/** Aggregates and functions whose argument SQLite computes with as a number. */
const NUMERIC_CALLS = new Set(['sum', 'avg', 'total', 'round', 'abs']);

/** A refusal: the statement cannot run on PostgreSQL as written. */
export class UntranslatableSql extends Error {
  override readonly name = 'UntranslatableSql';
}

const toks = (sql: string): Token[] => significant(tokenize(sql));

/**
 * Rewrites the expressions of tokens [from, to): functions, casts, operators, literals.
 * `numeric` says the range is the argument of a call that computes with a number.
 */
export function rewriteExpressions(tokens: readonly Token[], from = 0, to = tokens.length, numeric = false): Token[] {
  const out: Token[] = [];
  for (let i = from; i < to; i++) {
    const t = tokens[i] as Token;
    const next = tokens[i + 1];
    if (t.kind === 'word' && isOp(next, '(') && !isWord(t, 'IN', 'VALUES', 'AS', 'EXISTS', 'AND', 'OR', 'NOT', 'ON', 'USING', 'FROM', 'JOIN', 'OVER', 'FILTER', 'INTO', 'WHERE', 'SELECT', 'THEN', 'ELSE', 'WHEN', 'IS', 'LIMIT', 'KEY', 'CONFLICT', 'SET', 'BY', 'ALL', 'DISTINCT', 'RECURSIVE')) {
      const close = closeOf(tokens, i + 1);
      const call = rewriteCall(tokens, i, close, out, numeric);
      out.push(...call.tokens);
      i = close + call.consumed;
      continue;
    }
    if (isOp(t, '==')) out.push({ kind: 'op', text: '=' });
    else if (isWord(t, 'LIKE')) out.push({ kind: 'word', text: 'ILIKE' }); // SQLite's LIKE ignores the case of ASCII letters, as ILIKE under COLLATE "C"
    else if (isWord(t, 'GLOB', 'REGEXP', 'MATCH')) throw new UntranslatableSql(`the SQLite operator ${t.text.toUpperCase()} has no PostgreSQL translation here`);
    else if (isWord(t, 'IS')) {
      const not = isWord(next, 'NOT');
      const operand = tokens[i + (not ? 2 : 1)];
      if (isWord(operand, 'NULL', 'TRUE', 'FALSE', 'DISTINCT')) out.push(t);
      else {
        // SQLite's `a IS b` / `a IS NOT b` compare NULLs as values.
        out.push(...toks(not ? 'IS DISTINCT FROM' : 'IS NOT DISTINCT FROM'));
        if (not) i++;
      }
    } else if (isWord(t, 'INDEXED') && isWord(next, 'BY')) i += 2; // a planner hint: PostgreSQL chooses its own index
    else if (isWord(t, 'NOT') && isWord(next, 'INDEXED')) i += 1;
    else if (t.kind === 'number' && /^[0-9]+$/.test(t.text) && (isOp(out[out.length - 1], ...ARITHMETIC) || isOp(next, ...ARITHMETIC))) {
      // SQLite computes with 64-bit integers: `? * 86400000` on PostgreSQL would take ? as a 32-bit one.
      out.push(...toks(`CAST(${t.text} AS bigint)`));
    } else if (t.kind === 'word' && /[a-z]/.test(t.text) && /[A-Z]/.test(t.text)) {
      out.push({ kind: 'quoted', text: `"${t.text}"` }); // an alias such as stepId keeps its case, as on SQLite
    } else out.push(t);
  }
  return out;
}

interface Call {
  tokens: Token[];
  /** Tokens after the `)` the rewrite took in too (json_each's alias). */
  consumed: number;
}

/** One call `name(args)` whose name is at `at` and `)` at `close`; `before` is what was written before it. */
function rewriteCall(tokens: readonly Token[], at: number, close: number, before: readonly Token[], numericContext: boolean): Call {
  const name = (tokens[at] as Token).text.toLowerCase();
  const ranges = argsOf(tokens, at + 1, close);
  const numericArgs = NUMERIC_CALLS.has(name) || numericContext;
  const args = (numeric = numericArgs): Token[][] => ranges.map(([f, t]) => rewriteExpressions(tokens, f, t, numeric));
  const text = joinTokens;
  const call = (sql: string): Call => ({ tokens: toks(sql), consumed: 0 });
  if (REFUSED_FUNCTIONS.has(name) || name.startsWith('pragma_')) throw new UntranslatableSql(`the SQLite function ${name}() has no PostgreSQL translation`);
  if (name === 'cast') return call(rewriteCast(tokens, at, close));
  const a = args();
  const [first, second] = a.map(text);
  switch (name) {
    case 'ifnull':
      return call(`coalesce(${a.map(text).join(', ')})`);
    case 'max':
    case 'min':
      // Two or more arguments: SQLite's scalar max/min; one is the aggregate.
      return a.length >= 2 ? call(`${name === 'max' ? 'GREATEST' : 'LEAST'}(${a.map(text).join(', ')})`) : call(`${name}(${first ?? ''})`);
    case 'group_concat':
      return call(`string_agg(CAST(${first ?? ''} AS text), ${second ?? "','"})`);
    case 'instr':
      return call(`strpos(${first ?? ''}, ${second ?? ''})`);
    case 'substr':
    case 'substring':
      return call(`substr(${a.map(text).join(', ')})`);
    case 'round':
      // SQLite rounds half away from zero, as PostgreSQL's numeric round (its double one rounds half to even).
      return call(`round(CAST(${first ?? ''} AS numeric)${second === undefined ? '' : `, CAST(${second} AS integer)`})`);
    case 'typeof':
      return call(typeofSql(first ?? ''));
    case 'json_each':
      return jsonEach(tokens, close, first ?? '');
    case 'json_extract': {
      if (a.length !== 2 || ranges[1] === undefined || tokens[ranges[1][0]]?.kind !== 'string' || ranges[1][1] - ranges[1][0] !== 1) {
        throw new UntranslatableSql('json_extract is translated with one path, a string literal such as \'$.a.b\'');
      }
      const path = jsonPath(tokens[ranges[1][0]]?.text ?? '');
      const value = `(CAST(${first ?? ''} AS json) #>> '${path}')`;
      return call(numericArgs || numericUse(tokens, at, close, before) ? `CAST(${value} AS numeric)` : value);
    }
    case 'json_array_length':
      return call(`json_array_length(CAST(${first ?? ''} AS json))`);
    default:
      return call(`${tokens[at]?.text ?? name}(${a.map(text).join(', ')})`);
  }
}

/** CAST(x AS type) with SQLite's type names as PostgreSQL's. */
function rewriteCast(tokens: readonly Token[], at: number, close: number): string {
  let as = -1;
  let depth = 0;
  for (let i = at + 2; i < close; i++) {
    if (isOp(tokens[i], '(')) depth++;
    else if (isOp(tokens[i], ')')) depth--;
    else if (depth === 0 && isWord(tokens[i], 'AS')) as = i;
  }
  if (as < 0) throw new UntranslatableSql('CAST without AS');
  const type = textOf(tokens, as + 1, close).toUpperCase();
  const pgType = CAST_TYPES[type];
  if (pgType === undefined) throw new UntranslatableSql(`CAST to the SQLite type ${type} has no PostgreSQL translation`);
  const inner = joinTokens(rewriteExpressions(tokens, at + 2, as, type !== 'TEXT' && type !== 'BLOB'));
  return `CAST(${inner} AS ${pgType})`;
}

/** SQLite's typeof(x): 'null', 'integer', 'real', 'text' or 'blob'. */
function typeofSql(x: string): string {
  return `(CASE WHEN (${x}) IS NULL THEN 'null' WHEN pg_typeof(${x}) IN ('integer'::regtype, 'bigint'::regtype, 'smallint'::regtype) THEN 'integer' WHEN pg_typeof(${x}) IN ('double precision'::regtype, 'real'::regtype, 'numeric'::regtype) THEN 'real' WHEN pg_typeof(${x}) = 'bytea'::regtype THEN 'blob' ELSE 'text' END)`;
}

/** json_each(x) as a table of its array's items in a `value` column, under the alias the SQL gives (or json_each). */
function jsonEach(tokens: readonly Token[], close: number, x: string): Call {
  const after = tokens[close + 1];
  const named = isWord(after, 'AS') ? tokens[close + 2] : after;
  const alias = named !== undefined && (named.kind === 'quoted' || (named.kind === 'word' && !isWord(named, ...CLAUSE_WORDS))) ? named : undefined;
  const consumed = alias === undefined ? 0 : isWord(after, 'AS') ? 2 : 1;
  return { tokens: toks(`json_array_elements_text(CAST(${x} AS json)) AS ${alias?.text ?? 'json_each'}(value)`), consumed };
}

/** Words that end a FROM item: not an alias. */
export const CLAUSE_WORDS = ['WHERE', 'GROUP', 'ORDER', 'LIMIT', 'JOIN', 'LEFT', 'RIGHT', 'INNER', 'CROSS', 'FULL', 'OUTER', 'NATURAL', 'ON', 'USING', 'UNION', 'INTERSECT', 'EXCEPT', 'HAVING', 'WINDOW', 'OFFSET', 'RETURNING', 'SET', 'VALUES', 'SELECT', 'DO', 'AND', 'OR'];

/** A json_extract path ('$.a.b[0]') as PostgreSQL's text array of keys ('{a,b,0}'). */
function jsonPath(literal: string): string {
  const path = literal.slice(1, -1).replace(/''/g, "'");
  if (path === '$') return '{}';
  const keys: string[] = [];
  const re = /\.("(?:[^"]*)"|[^.[]+)|\[(\d+)\]/gy;
  re.lastIndex = 1;
  if (!path.startsWith('$')) throw new UntranslatableSql(`the JSON path ${literal} does not start with $`);
  for (let m = re.exec(path); m !== null; m = re.exec(path)) {
    keys.push(m[2] ?? (m[1] ?? '').replace(/^"|"$/g, ''));
    if (re.lastIndex === path.length) break;
  }
  if (keys.length === 0 || re.lastIndex !== path.length) throw new UntranslatableSql(`the JSON path ${literal} is not one the dialect translates ($.key, $.a.b, $.a[0])`);
  const quoted = keys.map((k) => (/^[A-Za-z0-9_$-]+$/.test(k) ? k : `"${k.replace(/["\\]/g, (c) => `\\${c}`)}"`));
  return `{${quoted.join(',')}}`.replace(/'/g, "''");
}

/**
 * Whether the json_extract call at [at, close] is used as a number: computed with (an arithmetic
 * operator beside it) or compared with a number literal.
 */
function numericUse(tokens: readonly Token[], at: number, close: number, before: readonly Token[]): boolean {
  const prev = before[before.length - 1];
  const next = tokens[close + 1];
  if (isOp(prev, ...ARITHMETIC) || isOp(next, ...ARITHMETIC)) return true;
  if (isOp(next, ...COMPARISON) && tokens[close + 2]?.kind === 'number') return true;
  return isOp(prev, ...COMPARISON) && tokens[at - 2]?.kind === 'number';
}
