import { describe, expect, it } from 'vitest';
import { RUN_FIELDS, scopeFor } from '../../../renderer/editor/inspector/scope.ts';
import { closesCycle, impossibleOutcomes, offeredOutcomes } from '../../../renderer/editor/inspector/edge-facts.ts';
import { doc } from './fixture.ts';

const edge = (id: string) => {
  const e = doc.edges.find((x) => x.id === id);
  if (e === undefined) throw new Error(id);
  return e;
};

describe('scopeFor', () => {
  it('lists the input fields, every other step with its output fields, and run', () => {
    const scope = scopeFor(doc, 'charge');
    expect(scope.input).toEqual(['amount', 'customer']);
    expect(scope.steps.map((s) => s.id)).toEqual(['quote', 'review', 'refund', 'pick', 'both', 'done']);
    expect(scope.steps[0]).toEqual({ id: 'quote', kind: 'http', fields: ['price'], guaranteed: false });
    expect(scope.steps[1]?.fields).toEqual([]);
    expect(scope.run).toEqual(RUN_FIELDS);
  });

  it('the workflow output sees every step; no input schema means no input fields', () => {
    const { input: _input, ...bare } = doc;
    const scope = scopeFor(bare, null);
    expect(scope.steps).toHaveLength(doc.steps.length);
    expect(scope.input).toEqual([]);
  });
});

describe('edge facts', () => {
  it('finds the edges that close a cycle', () => {
    expect(closesCycle(doc, edge('e3'))).toBe(true);
    expect(closesCycle(doc, edge('e1'))).toBe(true);
    expect(closesCycle(doc, edge('e4'))).toBe(false);
  });

  it('offers the outcomes of the source kind, exhausted where it has a loop edge', () => {
    expect(offeredOutcomes(doc, edge('e2'))).toEqual(['succeeded', 'rejected', 'expired', 'any', 'exhausted']);
    expect(offeredOutcomes(doc, edge('e4'))).toEqual(['succeeded', 'failed', 'unknown', 'budget_exceeded', 'any']);
  });

  it('keeps showing an outcome the source cannot produce, and names it', () => {
    const bad = { ...edge('e1'), on: 'rejected' as const };
    expect(offeredOutcomes(doc, bad)).toContain('rejected');
    expect(impossibleOutcomes(doc, bad)).toEqual(['rejected']);
    expect(impossibleOutcomes(doc, edge('e3'))).toEqual([]);
  });
});
