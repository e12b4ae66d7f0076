// Schema tables: inputs with the code and JSON path they must produce.
import { describe, expect, it } from 'vitest';
import { parseDefinitionText } from '../../shared/validator/parse-definition.ts';
import { lineColumn, locateJsonError } from '../../shared/definition/json-error-locator.ts';

const minimal = {
  format: 'weft/v1',
  id: 'order-flow',
  version: 1,
  name: 'Order flow',
  steps: [
    { id: 'start', kind: 'transform', config: { expression: 'input' } },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'e1', from: 'start', to: 'done' }],
};
const withPatch = (patch: (w: Record<string, unknown> & typeof minimal) => void): string => {
  const w = structuredClone(minimal) as Record<string, unknown> & typeof minimal;
  patch(w);
  return JSON.stringify(w);
};

describe('parseDefinitionText', () => {
  it('accepts a minimal workflow', () => {
    const r = parseDefinitionText(JSON.stringify(minimal));
    expect(r.ok).toBe(true);
  });

  it.each([
    ['empty file', '', 'empty-file', '$'],
    ['whitespace only', '  \n\t', 'empty-file', '$'],
    ['binary', 'PK\u0003\u0004\u0000\u0000', 'not-text', '$'],
    ['not JSON', 'format: weft/v1', 'not-json', '$'],
    ['trailing comma', '{"a": 1,\n}', 'not-json', '$'],
    ['array at top', '[1, 2]', 'schema-violation', '$'],
    ['wrong format', withPatch((w) => { w.format = 'weft/v2'; }), 'schema-violation', '$.format'],
    ['bad id', withPatch((w) => { w.id = 'Order Flow'; }), 'schema-violation', '$.id'],
    ['version 0', withPatch((w) => { w.version = 0; }), 'schema-violation', '$.version'],
    ['unknown top-level key', withPatch((w) => { w['stpes'] = []; }), 'schema-violation', '$'],
    ['unknown kind', withPatch((w) => { (w.steps[0] as { kind: string }).kind = 'trasform'; }), 'schema-violation', '$.steps[0].kind'],
    ['step id with a dash', withPatch((w) => { (w.steps[0] as { id: string }).id = 'my-step'; }), 'schema-violation', '$.steps[0].id'],
    ['unknown config key', withPatch((w) => { (w.steps[0] as { config: object }).config = { expresion: 'x' }; }), 'schema-violation', '$.steps[0].config'],
    ['bad edge outcome', withPatch((w) => { (w.edges[0] as { on?: string }).on = 'success'; }), 'schema-violation', '$.edges[0].on'],
    ['negative retries', withPatch((w) => { (w.steps[0] as { retry?: object }).retry = { maxAttempts: -1 }; }), 'schema-violation', '$.steps[0].retry.maxAttempts'],
    ['jitter above 1', withPatch((w) => { (w.steps[0] as { retry?: object }).retry = { jitter: 2 }; }), 'schema-violation', '$.steps[0].retry.jitter'],
    ['atLeast without count', withPatch((w) => { w.steps.push({ id: 'j', kind: 'join', config: { mode: 'atLeast' } } as never); }), 'schema-violation', '$.steps[2].config.count'],
    ['openai without model', withPatch((w) => { w.steps.push({ id: 'a', kind: 'agent', config: { provider: 'openai', prompt: 'hi' } } as never); }), 'schema-violation', '$.steps[2].config.model'],
    ['a key in the definition', withPatch((w) => { w.steps.push({ id: 'a', kind: 'agent', config: { provider: 'openai', model: 'm', prompt: 'hi', apiKey: 'sk-123' } } as never); }), 'schema-violation', '$.steps[2].config'],
    ['wait without duration', withPatch((w) => { w.steps.push({ id: 'w', kind: 'wait', config: {} } as never); }), 'schema-violation', '$.steps[2].config'],
  ])('%s → %s at %s', (_name, text, code, path) => {
    const r = parseDefinitionText(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostics.map((d) => [d.code, d.path])).toContainEqual([code, path]);
    for (const d of r.diagnostics) {
      expect(d.severity).toBe('error');
      expect(d.message).not.toMatch(/\n\s+at /);
      expect(d.hint).not.toBe('');
    }
  });

  it('names the step of a schema violation', () => {
    const r = parseDefinitionText(withPatch((w) => { (w.steps[0] as { timeoutMs?: number }).timeoutMs = -5; }));
    expect(r.ok ? [] : r.diagnostics.map((d) => d.stepId)).toEqual(['start']);
  });

  it('gives line and column of a syntax error', () => {
    const r = parseDefinitionText('{\n  "format": "weft/v1",\n  "id" "x"\n}');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostics[0]).toMatchObject({ code: 'not-json', line: 3, column: 8 });
    expect(r.diagnostics[0]?.message).toContain('line 3, column 8');
  });

  it('refuses nesting deeper than 64 levels without recursing', () => {
    const deep = '{"format":"weft/v1","x":' + '['.repeat(100_000) + ']'.repeat(100_000) + '}';
    const r = parseDefinitionText(deep);
    expect(r.ok ? '' : r.diagnostics[0]?.code).toBe('too-deep');
  });

  it('locates an unclosed deep array without overflowing the stack', () => {
    const e = locateJsonError('['.repeat(200_000));
    expect(e?.offset).toBe(200_000);
  });
});

describe('locateJsonError', () => {
  it.each([
    ['{"a":1}', undefined],
    ['{"a":1} x', 8],
    ['{"a":tru}', 5],
    ['{"a":"\\q"}', 6],
    ['[1,,2]', 3],
    ['{"a":1 "b":2}', 7],
    ['"abc', 4],
    ['-', 0],
  ])('%s → %s', (text, offset) => {
    expect(locateJsonError(text)?.offset).toBe(offset);
  });

  it('turns offsets into 1-based line and column', () => {
    expect(lineColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
    expect(lineColumn('ab', 0)).toEqual({ line: 1, column: 1 });
  });
});
