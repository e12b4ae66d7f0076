import jsonata from 'jsonata';
import { describe, expect, it } from 'vitest';
import { shapeOf } from '../../shared/validator/expressions/boolean-shape.ts';
import type { AstNode } from '../../shared/validator/expressions/jsonata-ast.ts';
import { referencesOf } from '../../shared/validator/expressions/references.ts';
import { placeholdersOf } from '../../shared/validator/expressions/template.ts';
import { walkSchema } from '../../shared/validator/schema/schema-path.ts';

const ast = (text: string) => jsonata(text).ast() as AstNode;
const refs = (text: string) => referencesOf(ast(text)).map((r) => [r.root, ...r.names].join('.')).sort();

describe('referencesOf', () => {
  it.each([
    ['steps.review.output.reason', ['steps.review.output.reason']],
    ['input.amount > 100 and run.inputRevision = 2', ['input.amount', 'run.inputRevision']],
    ['$count(steps.a.output.items) + $sum(input.items.price)', ['input.items.price', 'steps.a.output.items']],
    ['{"x": steps.a.output.x, "y": [steps.b.output.y]}', ['steps.a.output.x', 'steps.b.output.y']],
    ['input.items[price > steps.a.output.limit].name', ['input.items']],
    ['input.items[$$.steps.a.output.limit > 0]', ['input.items', 'steps.a.output.limit']],
    ['output.ok ? steps.a.output : steps.b.output', ['output.ok', 'steps.a.output', 'steps.b.output']],
    ['"steps.a.output"', []],
    ['x.steps.a', []],
  ])('%s', (text, expected) => {
    expect(refs(text)).toEqual([...expected].sort());
  });
});

describe('shapeOf (condition must be boolean)', () => {
  const untyped = () => undefined;
  it.each([
    ['output.score > 0.8', 'boolean'],
    ['output.a = 1 and output.b', 'boolean'],
    ['$exists(output.reason)', 'boolean'],
    ['true', 'boolean'],
    ['"yes"', 'non-boolean'],
    ['42', 'non-boolean'],
    ['output.score * 2', 'non-boolean'],
    ['"a" & "b"', 'non-boolean'],
    ['$count(output.items)', 'non-boolean'],
    ['{"a": 1}', 'non-boolean'],
    ['output.flag', 'unknown'],
    ['x ? "a" : "b"', 'non-boolean'],
  ])('%s → %s', (text, shape) => {
    expect(shapeOf(ast(text), untyped)).toBe(shape);
  });

  it('uses the declared type of a path', () => {
    expect(shapeOf(ast('output.total'), () => 'number')).toBe('non-boolean');
    expect(shapeOf(ast('output.ok'), () => 'boolean')).toBe('boolean');
  });
});

describe('walkSchema', () => {
  const schema = {
    type: 'object',
    properties: {
      items: { type: 'array', items: { type: 'object', properties: { price: { type: 'number' } } } },
      meta: { type: 'object' },
      tags: { type: 'object', additionalProperties: { type: 'string' } },
    },
  };
  it.each([
    [['items', 'price'], 'declared'],
    [['items', 'cost'], 'undeclared'],
    [['meta', 'anything'], 'open'],
    [['tags', 'colour'], 'declared'],
    [['nope'], 'undeclared'],
  ])('%j → %s', (names, status) => {
    expect(walkSchema(schema, names).status).toBe(status);
  });
});

describe('placeholdersOf', () => {
  it('finds expressions and their offsets', () => {
    expect(placeholdersOf('Hi {{ input.name }}, see {{steps.a.output}}')).toEqual([
      { expression: 'input.name', offset: 6 },
      { expression: 'steps.a.output', offset: 27 },
    ]);
  });
});
