// Completion in each context, as a pure function of (text, cursor, scope).
import { describe, expect, it } from 'vitest';
import { completeJsonata, completeTemplate, RUN_FIELDS, type CompletionScope } from '../../../renderer/code/jsonata-complete.ts';

const scope: CompletionScope = {
  input: ['orderId', 'customer', 'customer.name', 'customer.address.city', 'first name'],
  steps: [
    { id: 'maybe', kind: 'http', fields: ['status'], guaranteed: false },
    { id: 'review', kind: 'human', fields: ['decision', 'reason', 'meta.by'], guaranteed: true },
  ],
  run: [...RUN_FIELDS],
};

/** Completes at the end of `text` (or at `|` if present). */
function at(text: string, s: CompletionScope = scope, explicit = false): { from: number; labels: string[] } | null {
  const cursor = text.includes('|') ? text.indexOf('|') : text.length;
  const r = completeJsonata(text.replace('|', ''), cursor, s, explicit);
  return r === null ? null : { from: r.from, labels: r.options.map((o) => o.label) };
}

describe('completeJsonata', () => {
  it('offers step ids after "steps.", guaranteed ones first, with the kind as detail', () => {
    const r = completeJsonata('steps.', 6, scope);
    expect(r?.from).toBe(6);
    expect(r?.options.map((o) => [o.label, o.detail, o.boost])).toEqual([
      ['review', 'human', 1],
      ['maybe', 'http', -1],
    ]);
    expect(r?.options[1]?.info).toContain('$exists(steps.maybe.output)');
  });

  it('replaces the partly typed id', () => {
    expect(at('steps.rev')).toEqual({ from: 6, labels: ['review', 'maybe'] });
  });

  it('offers output after "steps.ID." and the declared fields after "steps.ID.output."', () => {
    expect(at('steps.review.')?.labels).toEqual(['output']);
    expect(at('steps.review.output.')?.labels).toEqual(['decision', 'reason', 'meta']);
    expect(at('steps.review.output.meta.')?.labels).toEqual(['by']);
    expect(at('steps.nosuch.output.')).toBeNull();
  });

  it('offers input fields level by level, quoting names that need it', () => {
    const r = completeJsonata('input.', 6, scope);
    expect(r?.options.map((o) => [o.label, o.detail, o.apply])).toEqual([
      ['orderId', 'field', undefined],
      ['customer', 'object', undefined],
      ['first name', 'field', '`first name`'],
    ]);
    expect(at('input.customer.')?.labels).toEqual(['name', 'address']);
    expect(at('input.customer.address.')?.labels).toEqual(['city']);
    expect(at('input.`customer`.')?.labels).toEqual(['name', 'address']);
  });

  it('offers run fields, and output fields only where output is in scope', () => {
    expect(at('run.')?.labels).toEqual([...RUN_FIELDS]);
    expect(at('output.')).toBeNull();
    expect(at('output.', { ...scope, output: ['ok'] })?.labels).toEqual(['ok']);
  });

  it('completes mid-expression, and reads $$ as the root', () => {
    expect(at('$exists(steps.|) and x')?.labels).toEqual(['review', 'maybe']);
    expect(at('a = 1 and input.cust')).toEqual({ from: 16, labels: ['orderId', 'customer', 'first name'] });
    expect(at('$$.steps.')?.labels).toEqual(['review', 'maybe']);
  });

  it('offers built-in functions with signatures after "$"', () => {
    const r = completeJsonata('$su', 3, scope);
    expect(r?.from).toBe(0);
    const sum = r?.options.find((o) => o.label === '$sum');
    expect(sum).toMatchObject({ type: 'function', detail: '(array)' });
    const labels = r?.options.map((o) => o.label) ?? [];
    for (const name of ['$exists', '$string', '$count', '$map', '$filter', '$activation']) expect(labels).toContain(name);
  });

  it('offers the roots for a typed word, and on request at an empty place', () => {
    expect(at('inp')?.labels).toEqual(['input', 'steps', 'run', 'and', 'or', 'in', 'true', 'false', 'null', 'function']);
    expect(at('x = ')).toBeNull();
    expect(at('x = ', scope, true)?.labels).toEqual(['input', 'steps', 'run']);
    expect(at('st', { ...scope, output: [] })?.labels).toContain('output');
  });

  it('offers nothing in strings, comments, or after computed values and variables', () => {
    expect(at('"steps.')).toBeNull();
    expect(at('/* steps.')).toBeNull();
    expect(at('x[0].')).toBeNull();
    expect(at('$v.')).toBeNull();
    expect(at('foo().')).toBeNull();
    expect(at('order.steps.')).toBeNull();
  });
});

describe('completeTemplate', () => {
  it('completes inside a placeholder, offset into the template', () => {
    const text = 'Hi {{ input.';
    const r = completeTemplate(text, text.length, scope);
    expect(r?.from).toBe(text.length);
    expect(r?.options.map((o) => o.label)).toEqual(['orderId', 'customer', 'first name']);
    const two = '{{ input.orderId }} and {{ steps.rev }}';
    expect(completeTemplate(two, two.indexOf('rev') + 1, scope)?.from).toBe(two.indexOf('rev'));
  });

  it('offers nothing in literal text', () => {
    expect(completeTemplate('input.', 6, scope)).toBeNull();
    expect(completeTemplate('{{ a }} input.', 14, scope)).toBeNull();
  });
});
