// The JSON view's tree as rows: which rows an open set shows, in what order, with which paths;
// stubs replaced by what was loaded for their path, and a "more" row while pages remain; the
// bounded "expand all"; and what each key does in the tree (treeKeyAction).
import { describe, expect, it } from 'vitest';
import type { ElidedValue } from '../../../shared/api/elided-value.ts';
import type { JsonValue } from '../../../shared/api/json-value.ts';
import { expandAllPaths, flattenRows, type JsonRow, type LoadedValue } from '../../../renderer/runs/payload/json-tree.ts';
import { treeKeyAction } from '../../../renderer/runs/payload/tree-keys.ts';

const rows = (v: JsonValue, open: string[], loaded = new Map<string, LoadedValue>(), root = '$'): JsonRow[] => [...flattenRows(v, root, new Set(open), loaded)];
const brief = (r: JsonRow): string => (r.type === 'more' ? `${'  '.repeat(r.depth)}more ${r.loaded}/${r.total}` : `${'  '.repeat(r.depth)}${r.path} ${r.kind}${r.open ? ' open' : ''}${r.count === null ? '' : ` (${r.count})`}${r.elided === null ? '' : ' elided'}`);

const stub = (path: string, kind: ElidedValue['kind'], count: number | null): ElidedValue => ({ $weft: 'elided', bytes: 5_000_000, path, kind, count, preview: '' });

describe('flattenRows', () => {
  const value = { order: { id: 'A17', 'line items': [{ sku: 'x' }, 2] }, ok: true, none: null };

  it('shows the root and the entries of open containers only, depth first, in key order', () => {
    expect(rows(value, ['$']).map(brief)).toEqual(['$ object open (3)', '  $.order object (2)', '  $.ok boolean', '  $.none null']);
    expect(rows(value, ['$', '$.order', '$.order["line items"]']).map(brief)).toEqual([
      '$ object open (3)',
      '  $.order object open (2)',
      '    $.order.id string',
      '    $.order["line items"] array open (2)',
      '      $.order["line items"][0] object (1)',
      '      $.order["line items"][1] number',
      '  $.ok boolean',
      '  $.none null',
    ]);
  });

  it('an open child of a closed container stays hidden', () => {
    expect(rows(value, ['$.order']).map(brief)).toEqual(['$ object (3)']);
  });

  it('paths start at the value path the view was given', () => {
    expect(rows([[1]], ['steps.a.attempts[0].output', 'steps.a.attempts[0].output[0]'], new Map(), 'steps.a.attempts[0].output').map((r) => r.path)).toEqual([
      'steps.a.attempts[0].output',
      'steps.a.attempts[0].output[0]',
      'steps.a.attempts[0].output[0][0]',
    ]);
  });

  it('a stub not loaded is a leaf row that carries it; loaded, it is its value, at the stub\'s path', () => {
    const s = stub('run.input.items', 'array', 40_000);
    const v = { items: s };
    expect(rows(v, ['run.input', 'run.input.items'], new Map(), 'run.input').map(brief)).toEqual(['run.input object open (1)', '  run.input.items array elided']);
    const loaded = new Map([['run.input.items', { value: [1, { a: 2 }], total: 40_000 }]]);
    expect(rows(v, ['run.input', 'run.input.items'], loaded, 'run.input').map(brief)).toEqual([
      'run.input object open (1)',
      '  run.input.items array open (40000)',
      '    run.input.items[0] number',
      '    run.input.items[1] object (1)',
      '    more 2/40000',
    ]);
  });

  it('a root that is a stub is one row until loaded', () => {
    const s = stub('steps.f.attempts[0].output', 'object', 3);
    expect(rows(s, ['steps.f.attempts[0].output'], new Map(), s.path).map(brief)).toEqual(['steps.f.attempts[0].output object elided']);
  });

  it('flattens 100,000 items lazily: taking the first rows does not walk the rest', () => {
    const big = Array.from({ length: 100_000 }, (_, i) => ({ i }));
    const it = flattenRows(big, '$', new Set(['$']), new Map());
    const first = [it.next().value, it.next().value] as JsonRow[];
    expect(first.map((r) => r.path)).toEqual(['$', '$[0]']);
    expect(rows(big, ['$'])).toHaveLength(100_001);
  });
});

describe('expandAllPaths', () => {
  it('opens every container when the rows fit', () => {
    expect([...expandAllPaths({ a: { b: [1, { c: 2 }] }, d: [] }, '$', new Map(), 100)]).toEqual(['$', '$.a', '$.a.b', '$.a.b[1]']);
  });

  it('stops at the level whose rows would pass the bound', () => {
    const v = { small: { x: 1 }, big: Array.from({ length: 50 }, (_, i) => i) };
    expect([...expandAllPaths(v, '$', new Map(), 20)]).toEqual(['$', '$.small']);
  });

  it('does not open stubs that are not loaded', () => {
    expect([...expandAllPaths({ s: stub('$.s', 'object', 2) }, '$', new Map(), 100)]).toEqual(['$']);
  });
});

describe('treeKeyAction', () => {
  const tree = { a: { b: 1 }, c: [1, 2] };
  const shown = rows(tree, ['$', '$.a']); // $, $.a (open), $.a.b, $.c
  it.each([
    ['ArrowDown', 0, { type: 'move', to: 1 }],
    ['ArrowDown', 3, { type: 'move', to: 3 }],
    ['ArrowUp', 0, { type: 'move', to: 0 }],
    ['End', 0, { type: 'move', to: 3 }],
    ['ArrowRight', 1, { type: 'move', to: 2 }],
    ['ArrowRight', 3, { type: 'toggle', path: '$.c' }],
    ['ArrowRight', 2, null],
    ['ArrowLeft', 1, { type: 'toggle', path: '$.a' }],
    ['ArrowLeft', 2, { type: 'move', to: 1 }],
    ['ArrowLeft', 3, { type: 'move', to: 0 }],
    ['Enter', 3, { type: 'toggle', path: '$.c' }],
    ['Enter', 2, null],
    ['x', 0, null],
  ])('%s on row %i', (key, at, action) => {
    expect(treeKeyAction(key, shown, at)).toEqual(action);
  });

  it('Enter loads a stub and the next page', () => {
    const s = stub('$.s', 'object', 2);
    expect(treeKeyAction('Enter', rows({ s }, ['$']), 1)).toEqual({ type: 'load', stub: s });
    const paged = rows({ s }, ['$', '$.s'], new Map([['$.s', { value: { k: 1 }, total: 2 }]]));
    expect(treeKeyAction('Enter', paged, 3)).toEqual({ type: 'more', path: '$.s', loaded: 1 });
  });
});
