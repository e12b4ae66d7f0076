// Value paths, which the JSON view's rows carry and the server resolves: a table of texts with
// their segments or their error, the canonical form that comes back, and the cutting of a value
// (shared/run/elide-values.ts) that the view renders stubs from.
import { describe, expect, it } from 'vitest';
import { appendPath, formatValuePath, parseValuePath } from '../../../shared/api/value-path.ts';
import { ElidedValue } from '../../../shared/api/elided-value.ts';
import { elideOver, shapeValue, utf8Bytes } from '../../../shared/run/elide-values.ts';

describe('parseValuePath', () => {
  it.each([
    ['run.input', ['run', 'input']],
    ['steps.fetch.attempts[2].output', ['steps', 'fetch', 'attempts', 2, 'output']],
    ['steps.fetch.attempts.2.output', ['steps', 'fetch', 'attempts', 2, 'output']],
    ['run.input["a b"]["x]y"][0]', ['run', 'input', 'a b', 'x]y', 0]],
    ['run.input["quote \\" inside"]', ['run', 'input', 'quote " inside']],
  ])('%s', (text, segments) => {
    expect(parseValuePath(text)).toEqual(segments);
  });

  it.each([
    ['', 'the path is empty'],
    ['.run', 'expected a name at character 1'],
    ['run..input', 'expected a name after "." at character 5'],
    ['run.input[', 'the "[" at character 10 is never closed'],
    ['run.input[01]', 'expected an index or a quoted key inside [] at character 11'],
    ['run.input["a]', 'the "[" at character 10 is never closed'],
    ["run.input['a']", 'expected an index or a quoted key'],
    ['run.input x', 'unexpected " " at character 10'],
  ])('%j is refused: %s', (text, message) => {
    const r = parseValuePath(text);
    expect(Array.isArray(r)).toBe(false);
    expect(Array.isArray(r) ? '' : r.message).toContain(message);
  });

  it('formats canonically, and appendPath quotes what is not a name', () => {
    expect(formatValuePath(['steps', 'fetch', 'attempts', 2, 'output', 'a b', 'ok'])).toBe('steps.fetch.attempts[2].output["a b"].ok');
    expect(appendPath('run.input', 3)).toBe('run.input[3]');
    expect(appendPath('run.input', '2')).toBe('run.input["2"]');
    expect(parseValuePath(appendPath('run.input', 'we"ird]'))).toEqual(['run', 'input', 'we"ird]']);
  });
});

describe('cutting values', () => {
  it('counts UTF-8 bytes as Buffer does', () => {
    for (const s of ['abc', 'é', '€', '😀', 'a\u{10FFFF}b', '\ud800']) expect(utf8Bytes(s)).toBe(Buffer.byteLength(s));
  });

  it('elideOver keeps a value at the limit and stubs one past it', () => {
    const v = { s: 'é'.repeat(10) };
    const bytes = Buffer.byteLength(JSON.stringify(v));
    expect(elideOver(v, 'run.input', bytes)).toBe(v);
    const stub = ElidedValue.parse(elideOver(v, 'run.input', bytes - 1));
    expect(stub).toEqual({ $weft: 'elided', bytes, path: 'run.input', kind: 'object', count: 1, preview: JSON.stringify(v) });
  });

  it('shapeValue stubs containers below the depth over the inline size, and slices the top', () => {
    const v = { small: [1], big: Array.from({ length: 100 }, (_, i) => i), text: 'x'.repeat(50) };
    const r = shapeValue(v, 'run.input', { depth: 1, inlineBytes: 20, stringLimit: 30 });
    expect(r).toMatchObject({ path: 'run.input', kind: 'object', total: 3, offset: 0, bytes: Buffer.byteLength(JSON.stringify(v)) });
    const value = r.value as Record<string, unknown>;
    expect(value['small']).toEqual([1]);
    expect(ElidedValue.parse(value['big'])).toMatchObject({ path: 'run.input.big', kind: 'array', count: 100 });
    expect(ElidedValue.parse(value['text'])).toMatchObject({ path: 'run.input.text', kind: 'string', count: 50 });
    expect(shapeValue(v.big, 'run.input.big', { offset: 98, limit: 5, inlineBytes: 20, stringLimit: 30 })).toMatchObject({ total: 100, offset: 98, value: [98, 99] });
    expect(shapeValue(v.big, 'run.input.big', { offset: 500, inlineBytes: 20, stringLimit: 30 })).toMatchObject({ total: 100, offset: 100, value: [] });
  });
});
