// The shape cache must be invisible: for every expression, what the validator reads from a
// shared shape AST (references, positions, syntax errors) equals a direct JSONata parse.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import jsonata from 'jsonata';
import { describe, expect, it } from 'vitest';
import { ExpressionCache } from '../../shared/validator/expressions/expression-cache.ts';
import { shapeOf } from '../../shared/validator/expressions/expression-shape.ts';
import type { AstNode } from '../../shared/validator/expressions/jsonata-ast.ts';
import { referencesOf } from '../../shared/validator/expressions/references.ts';
import { generateWorkflow } from '../bench/generate-workflow.ts';

const root = join(import.meta.dirname, '..', '..');
const HANDWRITTEN = [
  'steps.review.output.reason',
  'input.amount   >   100 and run.inputRevision = 2',
  '{"a": steps.x.output.total * 1.5e2, "b": [input.items[price > 10].name]}',
  "$count(input.items) > 0 ? 'many' : 'none'",
  'input.items[$$.steps.a.output.limit > 0]',
  '$string(input.n) & "\\u00e9"',
  'input.and or input.in',
  'input.a + 007',
  'input.a + 1e999',
  'input.x = "unterminated',
  "input.name = 'O''Brien'",
  'input.`odd name`',
  'input.prix€ > 1',
  '(input.a',
  'input.a +',
  '$map(input.items, function($v) { $v.price * 2 })',
  'input.date ~> $toMillis()',
];

function corpus(): string[] {
  const texts = new Set(HANDWRITTEN);
  const collect = (v: unknown, key = ''): void => {
    if (typeof v === 'string' && ['input', 'when', 'accept', 'expression', 'idempotencyKey', 'correlationKey', 'items', 'body', 'until', 'output'].includes(key)) texts.add(v);
    else if (Array.isArray(v)) v.forEach((x) => collect(x));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) collect(x, k);
  };
  for (const dir of ['examples', 'test/fixtures/validator']) {
    for (const f of readdirSync(join(root, dir)).filter((x) => x.endsWith('.weft.json'))) {
      collect(JSON.parse(readFileSync(join(root, dir, f), 'utf8')));
    }
  }
  collect(generateWorkflow({ steps: 300, seed: 7 }).workflow);
  return [...texts];
}

function direct(text: string): { ok: boolean; refs?: unknown; position?: unknown; message?: unknown } {
  try {
    return { ok: true, refs: referencesOf(jsonata(text).ast() as AstNode) };
  } catch (e) {
    const err = e as { position?: unknown; message?: unknown };
    return { ok: false, position: err.position, message: err.message };
  }
}

describe('expression shape cache', () => {
  const texts = corpus();

  it('has a real corpus', () => {
    expect(texts.length).toBeGreaterThan(100);
  });

  it('gives the same references, positions and errors as parsing each text directly', () => {
    const cache = new ExpressionCache();
    for (const text of texts) {
      const viaCache = cache.parse(text);
      const expected = direct(text);
      const got = viaCache.ok
        ? { ok: true, refs: referencesOf(viaCache.ast, viaCache.shape) }
        : { ok: false, position: viaCache.position, message: viaCache.message };
      expect(got, text).toEqual(expected);
    }
  });

  it('shares one parse between expressions that differ only in names, numbers and spacing', () => {
    const a = shapeOf('steps.a.output.total > 10');
    const b = shapeOf('steps.bb.output.sum   >   2000');
    expect(a?.key).toBe(b?.key);
    expect(shapeOf('input.x = "a\\"b"')?.key).toContain('\\"');
  });
});
