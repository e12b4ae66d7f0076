// Expressions in one workflow repeat their *shape* far more than their text:
// `steps.a.output.x` and `steps.b.output.y` differ only in names. JSONata's parser costs about
// 0.1 ms per expression (it rebuilds its symbol table on every call), so the cache keys parses by
// shape: names become n0, n1, …, numbers 0, strings "" and white space folds; readers of the shared AST map names and
// positions back with realName and realPosition. Texts the shape tokenizer is not sure about (regex literals,
// backtick names) are parsed as they are.

export interface Shape {
  key: string;
  names: string[];
  /** Number and string literals as written; the key holds 0 and "" in their place. */
  literals: string[];
  /** canonical offset → offset in the original text, for every canonical offset 0..key.length */
  toActual: Int32Array;
}

// Kept verbatim: operators and literals, and the context roots the reference walk recognises.
const KEYWORDS = new Set(['and', 'or', 'in', 'true', 'false', 'null', 'function', 'input', 'steps', 'run', 'output']);
const DELIMITERS = new Set([...'.[]{}(),@#;:?+-*/%|=<>^&!~']);
const isNameStart = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isNameChar = (c: number): boolean => isNameStart(c) || (c >= 48 && c <= 57);
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13;

export function shapeOf(text: string): Shape | undefined {
  let key = '';
  const names: string[] = [];
  const literals: string[] = [];
  const map: number[] = [];
  /** Puts `canonical` in the key in place of text[from, to). */
  const replace = (from: number, to: number, canonical: string): void => {
    for (let k = 0; k < canonical.length; k++) map.push(Math.min(from + k, to));
    key += canonical;
  };
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 47 || c === 96) return undefined; // '/' (regex or division) or '`': parse as is
    if (isSpace(c)) {
      let j = i + 1;
      while (j < n && isSpace(text.charCodeAt(j))) j++;
      map.push(i);
      key += ' ';
      i = j;
      continue;
    }
    if (c === 34 || c === 39) {
      let j = i + 1;
      while (j < n && text.charCodeAt(j) !== c) j += text.charCodeAt(j) === 92 ? 2 : 1;
      const end = Math.min(j + 1, n);
      const literal = text.slice(i, end);
      // A string's content cannot change the syntax, but an escape can be invalid: keep those.
      if (literal.includes('\\') || end === n && j >= n) {
        for (let k = i; k < end; k++) map.push(k);
        key += literal;
      } else {
        literals.push(literal);
        replace(i, end, '""');
      }
      i = end;
      continue;
    }
    if (c === 36) {
      let j = i + 1;
      while (j < n && (isNameChar(text.charCodeAt(j)) || text.charCodeAt(j) === 36)) j++;
      for (let k = i; k < j; k++) map.push(k);
      key += text.slice(i, j);
      i = j;
      continue;
    }
    if (isDigit(c)) {
      // JSONata's own number token; a number it would refuse (1e999) is parsed as written.
      const m = /^(0|[1-9][0-9]*)(\.[0-9]+)?([Ee][-+]?[0-9]+)?/.exec(text.slice(i, i + 400));
      if (m === null || !Number.isFinite(Number.parseFloat(m[0]))) return undefined;
      const end = i + m[0].length;
      literals.push(text.slice(i, end));
      replace(i, end, '0');
      i = end;
      continue;
    }
    if (isNameStart(c)) {
      let j = i + 1;
      while (j < n && isNameChar(text.charCodeAt(j))) j++;
      // JSONata names run to white space or an operator; anything else (a quote, a non-ASCII
      // letter) means this tokenizer would split differently: parse the text as it is.
      if (j < n && !isSpace(text.charCodeAt(j)) && !DELIMITERS.has(text[j] as string)) return undefined;
      const word = text.slice(i, j);
      if (KEYWORDS.has(word)) {
        for (let k = i; k < j; k++) map.push(k);
        key += word;
      } else {
        replace(i, j, `n${names.length}`);
        names.push(word);
      }
      i = j;
      continue;
    }
    if (c > 127) return undefined; // non-ASCII names: parse as is
    map.push(i);
    key += text[i];
    i++;
  }
  map.push(n);
  return { key, names, literals, toActual: Int32Array.from(map) };
}

const PLACEHOLDER = /^n(\d+)$/;

/** The real name behind a (possibly canonical) name. */
export function realName(shape: Shape | undefined, name: string): string {
  if (shape === undefined) return name;
  const m = PLACEHOLDER.exec(name);
  return m ? (shape.names[Number(m[1])] ?? name) : name;
}

/** The position in the real text behind a (possibly canonical) position. */
export function realPosition(shape: Shape | undefined, position: number | undefined): number | undefined {
  if (shape === undefined || position === undefined) return position;
  return shape.toActual[position] ?? position;
}

/** A key equal for two expressions exactly when they are the same but for white space. */
export function spacingInsensitiveKey(text: string, shape: Shape | undefined): string {
  if (shape === undefined) return text;
  // White space matters only between two word characters (`a and b`); drop it elsewhere.
  const tight = shape.key.replace(/ /g, (_m, at: number) =>
    /\w/.test(shape.key[at - 1] ?? '') && /\w/.test(shape.key[at + 1] ?? '') ? ' ' : '');
  return `${tight}\u0000${shape.names.join('\u0000')}\u0000${shape.literals.join('\u0000')}`;
}
