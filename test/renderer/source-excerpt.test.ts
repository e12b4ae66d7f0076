import { describe, expect, it } from 'vitest';
import { excerpt } from '../../renderer/workflows/source-excerpt.ts';
import { locateFinding } from '../../shared/definition/json-path-locator.ts';

const text = ['{', '  "format": "weft/v1",', '  "id": "broken",', '  "steps": [', '    { "id": "a", "kind": "end", },', '  ]', '}'].join('\n');

describe('the lines around a finding', () => {
  it('numbers the lines around it and marks the character of a syntax error', () => {
    const at = locateFinding(text, { path: '$', line: 5, column: 33 });
    if (at === undefined) throw new Error('located');
    const lines = excerpt(text, at);
    expect(lines.map((l) => l.number)).toEqual([2, 3, 4, 5, 6, 7]);
    const focus = lines.find((l) => l.focus);
    expect(focus).toEqual({ number: 5, before: '    { "id": "a", "kind": "end", ', marked: '}', after: ',', focus: true });
  });

  it('cuts a long line to a window around the mark', () => {
    const long = `{"a": "${'x'.repeat(5000)}", "b": tru}`;
    const lines = excerpt(long, { offset: 5015, end: 5016, line: 1 });
    expect(lines).toHaveLength(1);
    expect(lines[0]?.marked).toBe('t');
    expect((lines[0]?.before.length ?? 0) + (lines[0]?.after.length ?? 0)).toBeLessThan(200);
    expect(lines[0]?.before.startsWith('…')).toBe(true);
  });
});
