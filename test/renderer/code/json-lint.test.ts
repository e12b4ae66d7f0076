// JSON fields: syntax errors with line and column; JSON Schema fields: the validator's own schema
// check, placed at the keyword at fault.
import { describe, expect, it } from 'vitest';
import { jsonDiagnostics, jsonSchemaDiagnostics, lineColumn } from '../../../renderer/code/json-lint.ts';
import { pointerRange } from '../../../renderer/code/json-pointer-range.ts';

const marked = (text: string, d: { from: number; to: number } | undefined): string => (d === undefined ? '' : text.slice(d.from, d.to));

describe('jsonDiagnostics', () => {
  it('accepts valid JSON and an empty field', () => {
    expect(jsonDiagnostics('{"a": [1, 2, {"b": null}]}')).toEqual([]);
    expect(jsonDiagnostics('')).toEqual([]);
  });

  it('says where a syntax error is by line and column', () => {
    const text = '{\n  "a": 1,\n  "b": }\n}';
    const [d, ...rest] = jsonDiagnostics(text);
    expect(rest).toEqual([]);
    expect(d?.message).toMatch(/^JSON syntax error at line 3, column \d+: /);
    expect(d?.from).toBeGreaterThanOrEqual(text.indexOf('"b"'));
    // The reason only: engines append the (clipped) text, which would repeat the field.
    expect(d?.message).not.toContain('is not valid JSON');
    expect(d?.message).not.toContain('\n');
  });

  it('reports a trailing comma where it stops', () => {
    const [d] = jsonDiagnostics('{"a":1,}');
    expect(d?.message).toContain('line 1, column 8');
  });
});

describe('jsonSchemaDiagnostics', () => {
  it('accepts a valid schema', () => {
    expect(jsonSchemaDiagnostics('{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}')).toEqual([]);
  });

  it('underlines a wrong keyword value at its place', () => {
    const text = '{\n  "type": "object",\n  "properties": { "a": { "type": "strin" } }\n}';
    const ds = jsonSchemaDiagnostics(text);
    expect(ds.length).toBeGreaterThan(0);
    expect(ds[0]?.message).toContain('/properties/a/type');
    expect(marked(text, ds[0])).toBe('"strin"');
  });

  it('underlines an unknown (misspelt) keyword', () => {
    const text = '{"type": "object", "propertes": {"a": {}}}';
    const [d] = jsonSchemaDiagnostics(text);
    expect(d?.message).toContain('unknown keyword');
    expect(marked(text, d)).toBe('"propertes"');
  });

  it('refuses a schema that is not an object, and reports JSON errors first', () => {
    expect(jsonSchemaDiagnostics('"string"')[0]?.message).toContain('a JSON Schema is an object');
    expect(jsonSchemaDiagnostics('{"type": }')[0]?.message).toMatch(/^JSON syntax error/);
  });
});

describe('pointerRange and lineColumn', () => {
  it('finds values by pointer, with escapes and array indexes', () => {
    const text = '{"a/b": [10, {"c~d": true}]}';
    expect(marked(text, pointerRange(text, '/a~1b/1/c~0d'))).toBe('true');
    expect(marked(text, pointerRange(text, '/a~1b/0'))).toBe('10');
    expect(pointerRange(text, '/missing')).toBeUndefined();
  });

  it('counts lines and columns from 1', () => {
    expect(lineColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
    expect(lineColumn('ab', 0)).toEqual({ line: 1, column: 1 });
  });
});
