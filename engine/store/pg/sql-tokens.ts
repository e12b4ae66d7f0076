// SQL text as tokens, for translating the store's SQLite statements into PostgreSQL's
// (pg-dialect.ts): a rewrite works on words, punctuation and parameters, never inside a string
// literal, a quoted identifier or a comment, which stay byte for byte. Joining the tokens' text
// gives the statement back unchanged.

export type TokenKind = 'space' | 'comment' | 'string' | 'quoted' | 'blob' | 'number' | 'param' | 'word' | 'op';

export interface Token {
  kind: TokenKind;
  text: string;
}

/** Operators of two characters (longest match first). */
const TWO = new Set(['||', '<=', '>=', '<>', '!=', '==', '<<', '>>', '->', '::', '#>']);

/** Operators of three characters: JSON's, as the dialect writes them. */
const THREE = new Set(['->>', '#>>']);

/**
 * The tokens of `sql`; throws on a string, identifier or comment that is not closed.
 * @example tokenize("SELECT 'a?' || ?").filter((t) => t.kind === 'param') // [{ kind: 'param', text: '?' }]
 */
export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const closing = (end: string, from: number, what: string): number => {
    const at = sql.indexOf(end, from);
    if (at < 0) throw new Error(`the SQL has ${what} that is not closed (at character ${i}): ${sql.slice(0, 120)}`);
    return at + end.length;
  };
  while (i < sql.length) {
    const c = sql[i] ?? '';
    const next = sql[i + 1] ?? '';
    let end: number;
    let kind: TokenKind;
    if (/\s/.test(c)) {
      end = i + 1;
      while (end < sql.length && /\s/.test(sql[end] ?? '')) end++;
      kind = 'space';
    } else if (c === '-' && next === '-') {
      const nl = sql.indexOf('\n', i);
      end = nl < 0 ? sql.length : nl;
      kind = 'comment';
    } else if (c === '/' && next === '*') {
      end = closing('*/', i + 2, 'a comment');
      kind = 'comment';
    } else if ((c === 'x' || c === 'X') && next === "'") {
      end = quotedEnd(sql, i + 1, "'", 'a blob literal');
      kind = 'blob';
    } else if (c === "'") {
      end = quotedEnd(sql, i, "'", 'a string');
      kind = 'string';
    } else if (c === '"' || c === '`') {
      end = quotedEnd(sql, i, c, 'a quoted identifier');
      kind = 'quoted';
    } else if (c === '[') {
      end = closing(']', i + 1, 'a quoted identifier');
      kind = 'quoted';
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(next))) {
      const m = /^(?:0x[0-9a-fA-F]+|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)/.exec(sql.slice(i));
      end = i + (m?.[0].length ?? 1);
      kind = 'number';
    } else if (c === '?') {
      const m = /^\?[0-9]*/.exec(sql.slice(i));
      end = i + (m?.[0].length ?? 1);
      kind = 'param';
    } else if (c === '$' && /^\$[A-Za-z_]*\$/.test(sql.slice(i, i + 64))) {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i))?.[0] ?? '$$';
      end = closing(tag, i + tag.length, 'a dollar-quoted string');
      kind = 'string'; // PostgreSQL's $$…$$ (a function's body in the schema)
    } else if (c === '$' && /[0-9]/.test(next)) {
      const m = /^\$[0-9]+/.exec(sql.slice(i));
      end = i + (m?.[0].length ?? 1);
      kind = 'param';
    } else if ((c === '@' || c === ':' || c === '$') && /[A-Za-z_]/.test(next)) {
      const m = /^.[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i));
      end = i + (m?.[0].length ?? 1);
      kind = 'param';
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_$]*/.exec(sql.slice(i));
      end = i + (m?.[0].length ?? 1);
      kind = 'word';
    } else {
      end = THREE.has(sql.slice(i, i + 3)) ? i + 3 : TWO.has(c + next) ? i + 2 : i + 1;
      kind = 'op';
    }
    tokens.push({ kind, text: sql.slice(i, end) });
    i = end;
  }
  return tokens;
}

/** Where a quoted run that starts at `from` ends; a doubled quote inside is part of it. */
function quotedEnd(sql: string, from: number, quote: string, what: string): number {
  let i = from + 1;
  for (;;) {
    const at = sql.indexOf(quote, i);
    if (at < 0) throw new Error(`the SQL has ${what} that is not closed (at character ${from}): ${sql.slice(0, 120)}`);
    if (sql[at + 1] === quote) i = at + 2;
    else return at + 1;
  }
}

/** The tokens that mean something: no spaces, no comments. */
export function significant(tokens: readonly Token[]): Token[] {
  return tokens.filter((t) => t.kind !== 'space' && t.kind !== 'comment');
}

/** Whether `t` is the word `word` (any case). */
export function isWord(t: Token | undefined, ...words: string[]): boolean {
  return t?.kind === 'word' && words.includes(t.text.toUpperCase());
}

/** Whether `t` is the punctuation or operator `op`. */
export function isOp(t: Token | undefined, ...ops: string[]): boolean {
  return t?.kind === 'op' && ops.includes(t.text);
}

/** The index of the `)` that closes the `(` at `open` in `tokens`; throws if there is none. */
export function closeOf(tokens: readonly Token[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    if (isOp(tokens[i], '(')) depth++;
    else if (isOp(tokens[i], ')') && --depth === 0) return i;
  }
  throw new Error(`the SQL has a "(" that is not closed: ${tokens.map((t) => t.text).join('').slice(0, 120)}`);
}

/** The argument ranges [from, to) of the call whose `(` is at `open` and `)` at `close`, split at top-level commas. */
export function argsOf(tokens: readonly Token[], open: number, close: number): [number, number][] {
  const args: [number, number][] = [];
  let depth = 0;
  let from = open + 1;
  for (let i = open + 1; i < close; i++) {
    if (isOp(tokens[i], '(')) depth++;
    else if (isOp(tokens[i], ')')) depth--;
    else if (depth === 0 && isOp(tokens[i], ',')) {
      args.push([from, i]);
      from = i + 1;
    }
  }
  if (from < close || args.length > 0) args.push([from, close]);
  return args;
}

/** The text of tokens [from, to). */
export function textOf(tokens: readonly Token[], from = 0, to = tokens.length): string {
  let s = '';
  for (let i = from; i < to; i++) s += tokens[i]?.text ?? '';
  return s;
}

/** Words written with a space before a following `(` (a function's name is written without). */
const SPACED_BEFORE_PAREN = ['IN', 'FROM', 'SELECT', 'WHEN', 'THEN', 'ELSE', 'AND', 'OR', 'NOT', 'EXISTS', 'VALUES', 'AS', 'ON', 'JOIN', 'WHERE', 'CONFLICT', 'SET', 'BY', 'USING', 'OVER', 'UNION', 'ALL', 'DISTINCT', 'RETURN', 'IS', 'LIKE', 'ILIKE'];

/**
 * Significant tokens as SQL text, a space between two unless punctuation makes it needless.
 * @example joinTokens(significant(tokenize('SELECT e.a ,count( * )'))) // 'SELECT e.a, count(*)'
 */
export function joinTokens(tokens: readonly Token[]): string {
  let s = '';
  let prev: Token | undefined;
  for (const t of tokens) {
    const call = isOp(t, '(') && (prev?.kind === 'quoted' || (prev?.kind === 'word' && !isWord(prev, ...SPACED_BEFORE_PAREN)));
    const tight = prev === undefined || isOp(prev, '(', '.', '::') || isOp(t, ')', ',', '.', '::', ';') || call;
    s += tight ? t.text : ` ${t.text}`;
    prev = t;
  }
  return s;
}
