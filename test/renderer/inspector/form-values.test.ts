import { describe, expect, it } from 'vitest';
import { getIn, listValue, numberValue, recordValue, segmentsOf, setIn, textValue } from '../../../renderer/editor/inspector/form-values.ts';

describe('setIn', () => {
  it('sets a nested value, copying only along the path', () => {
    const root = { a: { b: 1 }, c: { d: 2 } };
    const next = setIn(root, ['a', 'b'], 5);
    expect(next).toEqual({ a: { b: 5 }, c: { d: 2 } });
    expect(root.a.b).toBe(1);
    expect((next as typeof root).c).toBe(root.c);
  });

  it('creates missing objects on the way', () => {
    expect(setIn({}, ['retry', 'maxAttempts'], 3)).toEqual({ retry: { maxAttempts: 3 } });
  });

  it('removes a cleared key and the parent objects it leaves empty', () => {
    expect(setIn({ id: 'a', retry: { maxAttempts: 3 } }, ['retry', 'maxAttempts'], undefined)).toEqual({ id: 'a' });
    expect(setIn({ limits: { concurrency: { gpu: 1 } } }, ['limits', 'concurrency', 'gpu'], undefined)).toEqual({});
  });

  it('keeps a parent that keep names, even when empty', () => {
    const keep = (p: string): boolean => p === 'config';
    expect(setIn({ config: { durationMs: 5 } }, ['config', 'durationMs'], undefined, keep)).toEqual({ config: {} });
  });

  it('sets and removes array items', () => {
    expect(setIn({ argv: ['a', 'b'] }, ['argv', 1], 'c')).toEqual({ argv: ['a', 'c'] });
    expect(setIn({ argv: ['a', 'b'] }, ['argv', 0], undefined)).toEqual({ argv: ['b'] });
  });
});

describe('getIn and segmentsOf', () => {
  it('reads along a path', () => {
    const v = { config: { argv: ['x', 'y'], workflow: { id: 'w' } } };
    expect(getIn(v, segmentsOf('config.argv[1]'))).toBe('y');
    expect(getIn(v, segmentsOf('config.workflow.id'))).toBe('w');
    expect(getIn(v, segmentsOf('config.missing.deep'))).toBeUndefined();
  });

  it.each([
    ['config.url', ['config', 'url']],
    ['config.argv[1]', ['config', 'argv', 1]],
    ['when', ['when']],
    ['retry.variants[0][1]', ['retry', 'variants', 0, 1]],
  ])('%s', (path, segments) => {
    expect(segmentsOf(path)).toEqual(segments);
  });
});

describe('form values to document values', () => {
  it('an empty list or record clears the field', () => {
    expect(listValue([])).toBeUndefined();
    expect(listValue(['a'])).toEqual(['a']);
    expect(recordValue([])).toBeUndefined();
    expect(recordValue([['', 'draft']])).toBeUndefined();
    expect(recordValue([[' A ', '1'], ['B', '2']])).toEqual({ A: '1', B: '2' });
  });

  it('numbers: empty clears, text is refused', () => {
    expect(numberValue('')).toEqual({ ok: true, value: undefined });
    expect(numberValue(' 2.5 ')).toEqual({ ok: true, value: 2.5 });
    expect(numberValue('abc')).toEqual({ ok: false, error: '"abc" is not a number' });
  });

  it('a cleared optional text loses its key; a required one stays empty', () => {
    expect(textValue('', true)).toBeUndefined();
    expect(textValue('', false)).toBe('');
    expect(textValue('x', true)).toBe('x');
  });
});
