// What the Problems panel lists: errors first, filtered by severity and by words of text.
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../shared/validator/diagnostic.ts';
import { countLabel, countSeverities, filterProblems, SHOW_ALL } from '../../../renderer/editor/validation/problem-filter.ts';

const diag = (over: Partial<Diagnostic>): Diagnostic => ({ code: 'c', severity: 'error', path: '$', message: 'm', hint: 'h', ...over });

const doc = { steps: [{ id: 'charge_card' }, { id: 'notify' }], edges: [{ id: 'to_notify' }] };
const ds = [
  diag({ code: 'absent-compensation', severity: 'warning', stepId: 'charge_card', path: '$.steps[0]', message: 'no compensation' }),
  diag({ code: 'unsafe-retry', stepId: 'charge_card', path: '$.steps[0].retry', message: 'retried without a key', hint: 'add an idempotencyKey' }),
  diag({ code: 'non-boolean-condition', path: '$.edges[0].when', message: 'the condition gives a string' }),
  diag({ code: 'unknown-resource', severity: 'warning', path: '$.limits', message: 'pool "gpu" has no limit' }),
];

describe('filterProblems', () => {
  it('lists errors first, each group in the validator order, with its target', () => {
    const items = filterProblems(ds, doc, SHOW_ALL);
    expect(items.map((i) => [i.diagnostic.code, i.target])).toEqual([
      ['unsafe-retry', 'charge_card'],
      ['non-boolean-condition', 'to_notify'],
      ['absent-compensation', 'charge_card'],
      ['unknown-resource', 'workflow'],
    ]);
  });

  it.each([
    ['errors only', { errors: true, warnings: false, text: '' }, ['unsafe-retry', 'non-boolean-condition']],
    ['warnings only', { errors: false, warnings: true, text: '' }, ['absent-compensation', 'unknown-resource']],
    ['neither', { errors: false, warnings: false, text: '' }, []],
    ['a code', { ...SHOW_ALL, text: 'UNSAFE' }, ['unsafe-retry']],
    ['a step id', { ...SHOW_ALL, text: 'charge_card' }, ['unsafe-retry', 'absent-compensation']],
    ['an edge id', { ...SHOW_ALL, text: 'to_notify' }, ['non-boolean-condition']],
    ['the hint', { ...SHOW_ALL, text: 'idempotencyKey' }, ['unsafe-retry']],
    ['"workflow" for workflow-level problems', { ...SHOW_ALL, text: 'workflow' }, ['unknown-resource']],
    ['every word must match', { ...SHOW_ALL, text: '  charge   compensation ' }, ['absent-compensation']],
    ['words and severity together', { errors: true, warnings: false, text: 'charge compensation' }, []],
    ['a path', { ...SHOW_ALL, text: '$.limits' }, ['unknown-resource']],
  ])('%s', (_name, filter, codes) => {
    expect(filterProblems(ds, doc, filter).map((i) => i.diagnostic.code)).toEqual(codes);
  });
});

describe('counts', () => {
  it('counts errors and warnings', () => {
    expect(countSeverities(ds)).toEqual({ errors: 2, warnings: 2 });
    expect(countSeverities([])).toEqual({ errors: 0, warnings: 0 });
  });

  it.each([
    [{ errors: 0, warnings: 0 }, 'no problems'],
    [{ errors: 1, warnings: 0 }, '1 error'],
    [{ errors: 0, warnings: 1 }, '1 warning'],
    [{ errors: 3, warnings: 2 }, '3 errors, 2 warnings'],
  ])('%o reads "%s"', (counts, label) => {
    expect(countLabel(counts)).toBe(label);
  });
});
