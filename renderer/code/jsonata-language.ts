// A line-based tokenizer for JSONata (expression fields) and for templates (text with
// `{{ expression }}` placeholders). Colouring only: errors come from the real parser (jsonata-lint.ts).
// Token names are @lezer/highlight tag names, styled by code-highlight.ts.
import { StreamLanguage, type StreamParser, type StringStream } from '@codemirror/language';

export interface JsonataTokenState {
  /** Inside a string or backtick name that continues on the next line. */
  quote: '"' | "'" | '`' | null;
  /** Inside a block comment that continues on the next line. */
  comment: boolean;
  /** The last token was `.`: a name here is a field, never a context root. */
  afterDot: boolean;
  /** Template mode only: inside a `{{ ... }}` placeholder. */
  inExpr: boolean;
}

const KEYWORDS = new Set(['and', 'or', 'in', 'function']);
/** The evaluation context's roots (docs/definition-format.md, "Expressions and templates"). */
const ROOTS = new Set(['input', 'steps', 'run', 'output']);
const NAME = /^[^\s.,:;()[\]{}"'`+\-*/%&|=<>!?~^$@#\d][^\s.,:;()[\]{}"'`+\-*/%&|=<>!?~^$@#]*/;
const NUMBER = /^\d+(\.\d+)?([eE][+-]?\d+)?/;
const OPERATOR = /^(:=|!=|<=|>=|~>|\.\.|\?:|\?\?|[+\-*/%&|=<>?!^~#@:])/;

function makeParser(template: boolean): StreamParser<JsonataTokenState> {
  // In a template the first `}}` ends the placeholder wherever it is (template.ts's regex is not
  // JSONata-aware), so strings and comments stop before it too.
  const closesNow = (stream: StringStream): boolean => template && stream.match('}}', false) === true;

  const continueQuoted = (stream: StringStream, state: JsonataTokenState): string => {
    const quote = state.quote;
    const kind = quote === '`' ? 'propertyName.special' : 'string';
    while (!stream.eol()) {
      if (closesNow(stream)) return kind;
      const ch = stream.next();
      if (ch === '\\' && quote !== '`') stream.next();
      else if (ch === quote) {
        state.quote = null;
        return kind;
      }
    }
    return kind;
  };

  const continueComment = (stream: StringStream, state: JsonataTokenState): string => {
    while (!stream.eol()) {
      if (closesNow(stream)) return 'comment';
      if (stream.match('*/')) {
        state.comment = false;
        return 'comment';
      }
      stream.next();
    }
    return 'comment';
  };

  const expressionToken = (stream: StringStream, state: JsonataTokenState): string | null => {
    if (state.comment) return continueComment(stream, state);
    if (state.quote !== null) return continueQuoted(stream, state);
    if (stream.eatSpace()) return null;
    const afterDot = state.afterDot;
    state.afterDot = false;
    if (stream.match('/*')) {
      state.comment = true;
      return continueComment(stream, state);
    }
    const ch = stream.peek();
    if (ch === '"' || ch === "'" || ch === '`') {
      stream.next();
      state.quote = ch;
      return continueQuoted(stream, state);
    }
    if (stream.match(NUMBER)) return 'number';
    if (ch === '$') {
      stream.next();
      if (stream.eat('$')) return 'variableName.special';
      stream.match(NAME);
      // A call colours as a function; `$x` alone is a variable (which may still hold a lambda).
      return stream.match(/^\s*\(/, false) ? 'variableName.function' : 'variableName.special';
    }
    const name = stream.match(NAME);
    if (typeof name === 'object' && name !== null) {
      const word = name[0];
      if (KEYWORDS.has(word)) return 'keyword';
      if (word === 'true' || word === 'false') return 'bool';
      if (word === 'null') return 'null';
      return !afterDot && ROOTS.has(word) ? 'variableName.standard' : 'propertyName';
    }
    if (stream.match(OPERATOR)) {
      state.afterDot = stream.current() === '.';
      return 'operator';
    }
    if (ch === '.') {
      stream.next();
      state.afterDot = true;
      return 'operator';
    }
    stream.next();
    if (ch === '(' || ch === ')') return 'paren';
    if (ch === '[' || ch === ']') return 'squareBracket';
    if (ch === '{' || ch === '}') return 'brace';
    if (ch === ',' || ch === ';') return 'separator';
    return 'invalid';
  };

  return {
    name: template ? 'jsonata-template' : 'jsonata',
    startState: () => ({ quote: null, comment: false, afterDot: false, inExpr: false }),
    copyState: (s) => ({ ...s }),
    token(stream, state) {
      if (!template) return expressionToken(stream, state);
      if (!state.inExpr) {
        if (stream.match('{{')) {
          state.inExpr = true;
          state.afterDot = false;
          return 'meta';
        }
        while (!stream.eol() && stream.match('{{', false) !== true) stream.next();
        return null;
      }
      if (closesNow(stream)) {
        stream.match('}}');
        Object.assign(state, { inExpr: false, quote: null, comment: false, afterDot: false });
        return 'meta';
      }
      return expressionToken(stream, state);
    },
    languageData: {
      commentTokens: { block: { open: '/*', close: '*/' } },
      closeBrackets: { brackets: ['(', '[', '{', '"', "'", '`'] },
    },
  };
}

/** JSONata expressions (step input, conditions, config expressions, the workflow's output). */
export const jsonataLanguage = StreamLanguage.define(makeParser(false));

/** Templates: literal text with `{{ expression }}` placeholders (prompts, URLs, titles). */
export const templateLanguage = StreamLanguage.define(makeParser(true));
