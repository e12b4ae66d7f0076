// The handoff record's one home (shared/definition/handoff-record.ts): its schema as a table of
// records, the output contract it adds to a giving step, reading one out of a value, and the
// graph's edge that carries one (renderer/graph/to-flow.ts, edge-label-layout.ts).
import { describe, expect, it } from 'vitest';
import { HandoffRecord, handoffIn, handoffJsonSchema, outputContractOf } from '../../shared/definition/handoff-record.ts';
import { Workflow } from '../../shared/definition/workflow-schema.ts';
import { edgeLabelParts, labelledEdges } from '../../renderer/graph/edge-label-layout.ts';
import { toEdges } from '../../renderer/graph/to-flow.ts';

describe('HandoffRecord', () => {
  it.each([
    ['a text and a task', { completed: 'notes', next: 'write' }, true],
    ['lists, constraints and every kind of reference', { completed: ['a', 'b'], next: 'write', constraints: ['cite'], refs: ['https://example.org', { title: 'RFC', url: 'https://example.org/rfc' }, { title: 'notes', step: 'research' }] }, true],
    ['no next', { completed: 'notes' }, false],
    ['an empty completed list', { completed: [], next: 'write' }, false],
    ['an empty next', { completed: 'notes', next: '' }, false],
    ['an unknown key', { completed: 'notes', next: 'write', constraint: ['cite'] }, false],
    ['a reference without a title', { completed: 'notes', next: 'write', refs: [{ url: 'https://example.org' }] }, false],
    ['a reference to a step id that is not one', { completed: 'notes', next: 'write', refs: [{ title: 'x', step: '1st' }] }, false],
  ])('%s: %s', (_what, value, ok) => {
    expect(HandoffRecord.safeParse(value).success).toBe(ok);
  });

  it('its JSON Schema is made from the zod schema, closed, with completed and next required', () => {
    const schema = handoffJsonSchema();
    expect(schema.$schema).toBeUndefined();
    expect(schema).toMatchObject({ type: 'object', required: ['completed', 'next'], additionalProperties: false });
  });
});

describe('outputContractOf', () => {
  it('is the output schema itself for a step that gives no handoff', () => {
    const output = { type: 'object' };
    expect(outputContractOf({ output })).toBe(output);
    expect(outputContractOf({})).toBeUndefined();
  });

  it('requires the record under handoff, keeps the step\'s own properties and required keys, and is the same object each time', () => {
    const step = { handoff: true, output: { type: 'object', required: ['summary'], properties: { summary: { type: 'string' } } } };
    const contract = outputContractOf(step);
    expect(contract).toEqual({ type: 'object', required: ['summary', 'handoff'], properties: { summary: { type: 'string' }, handoff: handoffJsonSchema() } });
    expect(outputContractOf(step)).toBe(contract);
  });

  it('makes the output an object without a schema, and narrows a handoff property the step declares itself', () => {
    expect(outputContractOf({ handoff: true })).toEqual({ type: 'object', properties: { handoff: handoffJsonSchema() }, required: ['handoff'] });
    const own = { type: 'object', properties: { next: { maxLength: 200 } } };
    expect(outputContractOf({ handoff: true, output: { properties: { handoff: own }, required: ['handoff'] } })).toEqual({
      type: 'object', properties: { handoff: { allOf: [own, handoffJsonSchema()] } }, required: ['handoff'],
    });
  });
});

describe('handoffIn', () => {
  it('reads a valid record out of an output or an input, and nothing out of anything else', () => {
    expect(handoffIn({ summary: 's', handoff: { completed: 'c', next: 'n' } })).toEqual({ completed: 'c', next: 'n' });
    expect(handoffIn({ handoff: { completed: 'c' } })).toBeUndefined();
    expect(handoffIn('text')).toBeUndefined();
    expect(handoffIn(null)).toBeUndefined();
    expect(handoffIn([{ handoff: { completed: 'c', next: 'n' } }])).toBeUndefined();
  });
});

describe('the edge that carries a handoff on the graph', () => {
  const workflow = Workflow.parse({
    format: 'weft/v1', id: 'h', version: 1, name: 'h',
    steps: [
      { id: 'research', kind: 'transform', handoff: true, config: { expression: '{ "handoff": { "completed": "c", "next": "n" } }' } },
      { id: 'draft', kind: 'transform', handoffFrom: 'research', config: { expression: 'input' } },
      { id: 'done', kind: 'end' },
    ],
    edges: [{ id: 'r_d', from: 'research', to: 'draft' }, { id: 'd_done', from: 'draft', to: 'done' }],
  });

  it('is marked, and only it', () => {
    const edges = toEdges(workflow, null);
    expect(edges.find((e) => e.id === 'r_d')?.data?.handoff).toBe(true);
    expect(edges.find((e) => e.id === 'd_done')?.data?.handoff).toBeUndefined();
  });

  it('has a label wide enough for its chip, even on a plain succeeded edge', () => {
    expect(labelledEdges(workflow).map((e) => e.id)).toEqual(['r_d']);
    expect(edgeLabelParts(workflow.edges[0] as Workflow['edges'][number], true)).toHaveLength(1);
    expect(labelledEdges({ edges: workflow.edges })).toEqual([]);
  });
});
