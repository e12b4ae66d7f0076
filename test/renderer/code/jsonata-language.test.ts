// The tokenizer, run by CodeMirror itself: each sample's tokens as (text, highlight tag name).
import { EditorState } from '@codemirror/state';
import { ensureSyntaxTree, type Language } from '@codemirror/language';
import { describe, expect, it } from 'vitest';
import { jsonataLanguage, templateLanguage } from '../../../renderer/code/jsonata-language.ts';

function tokens(language: Language, doc: string): [string, string][] {
  const state = EditorState.create({ doc, extensions: [language] });
  const tree = ensureSyntaxTree(state, doc.length, 5_000);
  if (tree === null) throw new Error('the tokenizer did not finish');
  const out: [string, string][] = [];
  tree.iterate({
    enter: (n) => {
      if (n.type.isTop) return;
      out.push([doc.slice(n.from, n.to), n.name]);
    },
  });
  return out;
}

const kindOf = (list: [string, string][], text: string): string | undefined => list.find(([t]) => t === text)?.[1];

describe('JSONata tokenizer', () => {
  it('tells context roots from fields, and colours operators', () => {
    expect(tokens(jsonataLanguage, 'steps.review.output.reason = "ok"')).toEqual([
      ['steps', 'variableName.standard'],
      ['.', 'operator'],
      ['review', 'propertyName'],
      ['.', 'operator'],
      ['output', 'propertyName'],
      ['.', 'operator'],
      ['reason', 'propertyName'],
      ['=', 'operator'],
      ['"ok"', 'string'],
    ]);
  });

  it('colours calls, variables, keywords, atoms, numbers and comments', () => {
    const list = tokens(jsonataLanguage, "$exists(input.x) and $activation > 1.5e2 or null /* why */ in [true, 'a\\'b']");
    expect(kindOf(list, '$exists')).toBe('variableName.function');
    expect(kindOf(list, '$activation')).toBe('variableName.special');
    expect(kindOf(list, 'and')).toBe('keyword');
    expect(kindOf(list, 'or')).toBe('keyword');
    expect(kindOf(list, 'in')).toBe('keyword');
    expect(kindOf(list, '1.5e2')).toBe('number');
    expect(kindOf(list, 'null')).toBe('null');
    expect(kindOf(list, 'true')).toBe('bool');
    expect(kindOf(list, '/* why */')).toBe('comment');
    expect(kindOf(list, "'a\\'b'")).toBe('string');
    expect(kindOf(list, 'input')).toBe('variableName.standard');
    expect(kindOf(list, '(')).toBe('paren');
    expect(kindOf(list, '[')).toBe('squareBracket');
  });

  it('reads backtick names, multi-character operators and lambdas', () => {
    const list = tokens(jsonataLanguage, 'input.`first name` ~> $map(function($v) { $v != "" })');
    expect(kindOf(list, '`first name`')).toBe('propertyName.special');
    expect(kindOf(list, '~>')).toBe('operator');
    expect(kindOf(list, '!=')).toBe('operator');
    expect(kindOf(list, 'function')).toBe('keyword');
    expect(kindOf(list, '$v')).toBe('variableName.special');
    expect(kindOf(list, '{')).toBe('brace');
  });

  it('carries a comment and a string across lines', () => {
    const list = tokens(jsonataLanguage, '/* one\ntwo */ "a\nb" & x');
    expect(list.filter(([, k]) => k === 'comment').map(([t]) => t)).toEqual(['/* one', 'two */']);
    expect(list.filter(([, k]) => k === 'string').map(([t]) => t)).toEqual(['"a', 'b"']);
    expect(kindOf(list, 'x')).toBe('propertyName');
  });
});

describe('template tokenizer', () => {
  it('leaves literal text plain and colours each placeholder as JSONata', () => {
    const list = tokens(templateLanguage, 'Hello {{ input.name }}, see {{ $string(steps.a.output.n) }}!');
    expect(list.map(([t]) => t)).not.toContain('Hello ');
    expect(list.filter(([, k]) => k === 'meta').map(([t]) => t)).toEqual(['{{', '}}', '{{', '}}']);
    expect(kindOf(list, 'input')).toBe('variableName.standard');
    expect(kindOf(list, '$string')).toBe('variableName.function');
    expect(kindOf(list, 'steps')).toBe('variableName.standard');
  });

  it('ends a placeholder at the first "}}", even inside a string, as the engine does', () => {
    const list = tokens(templateLanguage, '{{ "a}}b" }}');
    expect(list.slice(0, 3)).toEqual([
      ['{{', 'meta'],
      ['"a', 'string'],
      ['}}', 'meta'],
    ]);
    // `b" ` is literal text again, so not a token; the last `}}` is literal too.
    expect(list).toHaveLength(3);
  });

  it('does not colour words in literal text as roots or keywords', () => {
    expect(tokens(templateLanguage, 'input and steps')).toEqual([]);
  });
});
