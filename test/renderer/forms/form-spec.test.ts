// The schema → fields reading of the start form and the task forms: a table of schemas with the
// fields they give, and the schemas that give no form (the JSON tab takes those).
import { describe, expect, it } from 'vitest';
import { formSpec, fieldSpec } from '../../../renderer/forms/form-spec.ts';
import { readFileSync } from 'node:fs';

describe('formSpec', () => {
  it('reads research-review\'s input schema: required marks, hints, limits', () => {
    const wf = JSON.parse(readFileSync('examples/research-review.weft.json', 'utf8')) as { input: unknown };
    const spec = formSpec(wf.input);
    expect(spec?.closed).toBe(true);
    expect(spec?.fields).toEqual([
      { key: 'topic', label: 'topic', required: true, description: 'what the article is about', kind: 'text', input: 'text', minLength: 3, maxLength: undefined, pattern: undefined },
      { key: 'audience', label: 'audience', required: false, description: "who reads it, e.g. 'platform engineers'", kind: 'text', input: 'text', minLength: undefined, maxLength: undefined, pattern: undefined },
      { key: 'maxWords', label: 'maxWords', required: false, kind: 'number', integer: true, minimum: 100, maximum: 3000, exclusiveMinimum: undefined, exclusiveMaximum: undefined },
    ]);
  });

  it.each([
    ['a string schema', { type: 'string' }],
    ['an object without properties', { type: 'object' }],
    ['an object with no property listed', { type: 'object', properties: {} }],
    ['a oneOf at the root', { oneOf: [{ type: 'object', properties: { a: { type: 'string' } } }] }],
    ['a $ref at the root', { $ref: '#/definitions/x', properties: { a: {} } }],
    ['not a schema', 'nope'],
    ['null', null],
  ])('%s has no form', (_what, schema) => {
    expect(formSpec(schema)).toBeNull();
  });

  it.each([
    [{ type: 'string', format: 'date-time' }, { kind: 'text', input: 'datetime-local' }],
    [{ type: 'string', format: 'date' }, { kind: 'text', input: 'date' }],
    [{ type: 'string', format: 'email' }, { kind: 'text', input: 'email' }],
    [{ type: 'string', format: 'uri' }, { kind: 'text', input: 'url' }],
    [{ type: ['string', 'null'] }, { kind: 'text', input: 'text' }],
    [{ type: 'number', exclusiveMinimum: 0 }, { kind: 'number', integer: false, exclusiveMinimum: 0 }],
    [{ type: 'boolean', default: true }, { kind: 'boolean', default: true }],
    [{ enum: ['low', 'high'] }, { kind: 'enum', options: ['low', 'high'] }],
    [{ const: 3 }, { kind: 'enum', options: [3] }],
    [{ type: 'array', items: { type: 'string' }, minItems: 1 }, { kind: 'list', minItems: 1, item: { kind: 'text' } }],
    [{ type: 'array', items: { enum: ['a', 'b'] } }, { kind: 'list', item: { kind: 'enum', options: ['a', 'b'] } }],
    [{ type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } }, { kind: 'json' }],
    [{ type: 'array' }, { kind: 'json' }],
    [{ enum: [{ a: 1 }] }, { kind: 'json' }],
    [{ anyOf: [{ type: 'string' }, { type: 'number' }] }, { kind: 'json' }],
    [{ type: ['string', 'number'] }, { kind: 'json' }],
    [{ type: 'object' }, { kind: 'json' }],
    [{ type: 'null' }, { kind: 'json' }],
    [{ title: 'Due by', type: 'string' }, { label: 'Due by', kind: 'text' }],
  ])('%j is drawn as %j', (schema, expected) => {
    expect(fieldSpec('f', schema, false)).toMatchObject(expected);
  });

  it('draws nested objects as fieldsets, and past four levels as JSON', () => {
    const deep = (n: number): object => (n === 0 ? { type: 'string' } : { type: 'object', properties: { x: deep(n - 1) } });
    const spec = formSpec({ type: 'object', properties: { a: deep(4) } });
    let field = spec?.fields[0];
    const kinds: string[] = [];
    while (field !== undefined) {
      kinds.push(field.kind);
      field = field.kind === 'object' ? field.fields[0] : undefined;
    }
    expect(kinds).toEqual(['object', 'object', 'object', 'json']);
  });

  it('keeps a default only when it is JSON', () => {
    expect(fieldSpec('n', { type: 'number', default: 5 }, false)).toMatchObject({ default: 5 });
    expect(fieldSpec('n', { type: 'number' }, false)).not.toHaveProperty('default');
  });
});
