import { describe, expect, it } from 'vitest';
import { locateJsonPath, parseJsonPath } from '../../shared/definition/json-path-locator.ts';

const text = `{
  "format": "weft/v1",
  "steps": [
    { "id": "a", "kind": "end" },
    { "id": "b", "kind": "htp", "config": { "url": "x", "odd key": [1, {"s": "]}\\""}] } }
  ]
}`;

describe('locating a JSON path in a file', () => {
  it('reads the paths diagnostics give', () => {
    expect(parseJsonPath('$')).toEqual([]);
    expect(parseJsonPath('$.steps[1].config["odd key"][0]')).toEqual(['steps', 1, 'config', 'odd key', 0]);
    expect(parseJsonPath('steps')).toBeNull();
    expect(parseJsonPath('$.steps[')).toBeNull();
  });

  it('finds the value at the path, with its line and column', () => {
    const kind = locateJsonPath(text, '$.steps[1].kind');
    expect(kind).toMatchObject({ line: 5, column: 26 });
    expect(text.slice(kind?.offset, kind?.end)).toBe('"htp"');
    const odd = locateJsonPath(text, '$.steps[1].config["odd key"][1]');
    expect(text.slice(odd?.offset, odd?.end)).toBe('{"s": "]}\\""}');
  });

  it('shows a missing key at the object that lacks it, and the whole text for $', () => {
    const missing = locateJsonPath(text, '$.steps[0].config');
    expect(text.slice(missing?.offset, missing?.end)).toBe('{');
    expect(missing).toMatchObject({ line: 4, column: 5 });
    expect(locateJsonPath(text, '$.steps[7]')).toMatchObject({ line: 3, column: 12 });
    expect(locateJsonPath(text, '$')).toMatchObject({ offset: 0, end: text.length, line: 1, column: 1 });
    expect(locateJsonPath('', '$.a')).toBeUndefined();
  });
});
