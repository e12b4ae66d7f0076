// Expression and template errors as you type: JSONata's own parse, placed on the token at fault.
import { describe, expect, it } from 'vitest';
import { errorRange, jsonataDiagnostics, templateDiagnostics, wordRangeAt } from '../../../renderer/code/jsonata-lint.ts';

const marked = (text: string, d: { from: number; to: number }): string => text.slice(d.from, d.to);

describe('jsonataDiagnostics', () => {
  it('has none for a valid expression or an empty field', () => {
    expect(jsonataDiagnostics('steps.a.output.total > 10 and $exists(input.x)')).toEqual([]);
    expect(jsonataDiagnostics('  ')).toEqual([]);
  });

  it('underlines the token JSONata stopped at, with its message', () => {
    const text = 'input.x = "y" andd z';
    const [d, ...rest] = jsonataDiagnostics(text);
    expect(rest).toEqual([]);
    expect(d).toMatchObject({ from: 14, to: 18, severity: 'error' });
    expect(marked(text, d ?? { from: 0, to: 0 })).toBe('andd');
    expect(d?.message).toBe('JSONata: Syntax error: "andd"');
  });

  it('places "unexpected end" at the dangling dot', () => {
    const [d] = jsonataDiagnostics('steps.review.');
    expect(d).toMatchObject({ from: 12, to: 13 });
    expect(d?.message).toContain('Unexpected end of expression');
  });

  it('reports an unterminated string and an open call', () => {
    expect(jsonataDiagnostics('"abc')[0]?.message).toContain('String literal must be terminated');
    expect(jsonataDiagnostics('$sum(1,')[0]?.message).toContain('Expected ")"');
  });
});

describe('templateDiagnostics', () => {
  it('offsets a placeholder error into the template text', () => {
    const text = 'Order {{ input.id }} for {{ input. }}';
    const ds = templateDiagnostics(text);
    expect(ds).toHaveLength(1);
    expect(marked(text, ds[0] ?? { from: 0, to: 0 })).toBe('.');
    expect(ds[0]?.from).toBe(text.indexOf('input. ') + 5);
  });

  it('flags an empty placeholder and an unclosed "{{"', () => {
    const text = 'a {{ }} b {{ input.x';
    const ds = templateDiagnostics(text);
    expect(ds.map((d) => [marked(text, d), d.severity])).toEqual([
      ['{{ }}', 'error'],
      ['{{', 'warning'],
    ]);
    expect(ds[1]?.from).toBe(10);
  });

  it('has none for plain text and valid placeholders', () => {
    expect(templateDiagnostics('{{ input.apiBase }}/orders/{{ $string(input.n) }}')).toEqual([]);
    expect(templateDiagnostics('no placeholders at all')).toEqual([]);
  });
});

describe('ranges', () => {
  it('errorRange covers the name ending at a position, or the symbol before it', () => {
    expect(errorRange('a + bcd', 7)).toEqual({ from: 4, to: 7 });
    expect(errorRange('a +', 3)).toEqual({ from: 2, to: 3 });
    expect(errorRange('abc', undefined)).toEqual({ from: 0, to: 3 });
    expect(errorRange('x', 99)).toEqual({ from: 0, to: 1 });
  });

  it('wordRangeAt widens a validator position to its word', () => {
    const text = 'steps.review.output';
    expect(wordRangeAt(text, 5)).toEqual({ from: 0, to: 5 });
    expect(wordRangeAt(text, 8)).toEqual({ from: 6, to: 12 });
  });
});
