// The canonical file text: a fixed key order for the workflow, steps and edges, the schema's
// order for the other objects the format defines (config, retry), the author's order in free-form
// maps (JSON Schemas, headers), layout in step order with whole-pixel positions, short values on
// one line, and idempotence whatever the order of the value given. Every example of the repository is already in canonical form, so saving an
// unchanged example writes the same bytes.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDefinition, LINE_WIDTH } from '../../shared/definition/format-definition.ts';
import { parseDefinitionText } from '../../shared/validator/parse-definition.ts';
import { Workflow } from '../../shared/definition/workflow-schema.ts';

const examples = join(import.meta.dirname, '../../examples');
const exampleFiles = readdirSync(examples).filter((f) => f.endsWith('.weft.json'));

/** A value with its keys in the order given (not the schema's): the formatter must order them. */
const workflow = (value: unknown): Workflow => {
  Workflow.parse(value);
  return value as Workflow;
};

const scrambled = workflow({
  layout: { done: { y: 40.6, x: 300.4 }, fetch: { x: -0.4, y: 12.5 }, gone: { x: 1, y: 2 } },
  edges: [{ to: 'done', on: 'succeeded', from: 'fetch', id: 'e1' }],
  steps: [
    {
      retry: { initialIntervalMs: 100, maxAttempts: 3 },
      config: { url: 'https://example.org/{{ input.id }}', method: 'GET', headers: { 'X-B': '2', 'X-A': '1' } },
      kind: 'http',
      name: 'Fetch',
      id: 'fetch',
      output: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
    },
    { kind: 'end', id: 'done' },
  ],
  name: 'Scrambled',
  version: 3,
  id: 'scrambled',
  format: 'weft/v1',
  $schema: './weft-v1.schema.json',
});

describe('formatDefinition', () => {
  it('writes keys in the format’s order, config and retry in their schema’s, JSON Schemas and headers in the author’s, and rounds layout in step order', () => {
    const text = formatDefinition(scrambled);
    expect(text).toBe(`{
  "$schema": "./weft-v1.schema.json",
  "format": "weft/v1",
  "id": "scrambled",
  "version": 3,
  "name": "Scrambled",
  "steps": [
    {
      "id": "fetch",
      "name": "Fetch",
      "kind": "http",
      "config": { "method": "GET", "url": "https://example.org/{{ input.id }}", "headers": { "X-B": "2", "X-A": "1" } },
      "output": { "type": "object", "required": ["id"], "properties": { "id": { "type": "string" } } },
      "retry": { "maxAttempts": 3, "initialIntervalMs": 100 }
    },
    {
      "id": "done",
      "kind": "end"
    }
  ],
  "edges": [
    { "id": "e1", "from": "fetch", "to": "done", "on": "succeeded" }
  ],
  "layout": {
    "fetch": { "x": 0, "y": 13 },
    "done": { "x": 300, "y": 41 },
    "gone": { "x": 1, "y": 2 }
  }
}
`);
  });

  it('is idempotent, and gives the same text for the schema’s parse of a value as for the value', () => {
    const once = formatDefinition(scrambled);
    expect(formatDefinition(workflow(JSON.parse(once)))).toBe(once);
    expect(formatDefinition(Workflow.parse(scrambled))).toBe(once);
  });

  it('spreads a value whose line would pass the width, and keeps one that fits on its line', () => {
    const long = 'x'.repeat(LINE_WIDTH);
    const text = formatDefinition(
      workflow({
        format: 'weft/v1',
        id: 'w',
        version: 1,
        name: 'W',
        input: { type: 'object', properties: { note: { type: 'string', description: long } } },
        steps: [{ id: 'done', kind: 'end', config: { status: 'succeeded' } }],
        edges: [],
      }),
    );
    expect(text).toContain('  "input": {\n    "type": "object",\n    "properties": {\n      "note": {\n        "type": "string",\n');
    expect(text).toContain('      "config": { "status": "succeeded" }\n');
    expect(text).toContain('  "edges": []\n');
    expect(text.endsWith('}\n')).toBe(true);
    for (const line of text.split('\n')) if (!line.includes(long)) expect(line.length).toBeLessThanOrEqual(LINE_WIDTH);
  });

  it('keeps every value: the formatted text parses back to an equal workflow', () => {
    for (const file of exampleFiles) {
      const parsed = JSON.parse(readFileSync(join(examples, file), 'utf8')) as unknown;
      expect(JSON.parse(formatDefinition(workflow(parsed)))).toEqual(parsed);
    }
  });

  it.each(exampleFiles)('leaves %s byte for byte as it is (the examples are canonical)', (file) => {
    const text = readFileSync(join(examples, file), 'utf8');
    const parsed = parseDefinitionText(text);
    expect(parsed.ok).toBe(true);
    expect(formatDefinition(workflow(JSON.parse(text)))).toBe(text);
    if (parsed.ok) expect(formatDefinition(parsed.workflow)).toBe(text);
  });
});
