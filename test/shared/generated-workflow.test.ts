// The benchmark's generated workflows must stay well-formed, or the bench measures error paths.
// No timings here: performance is measured by `npm run bench`, never asserted.
import { describe, expect, it } from 'vitest';
import { parseDefinitionText } from '../../shared/validator/parse-definition.ts';
import { generateRing, generateWorkflow } from '../bench/generate-workflow.ts';

describe('generateWorkflow', () => {
  const { workflow } = generateWorkflow({ steps: 1_000, seed: 1 });

  it('generates a 1,000-step workflow that parses', () => {
    const parsed = parseDefinitionText(JSON.stringify(workflow, null, 2));
    expect(parsed.ok ? [] : parsed.diagnostics).toEqual([]);
    expect(parsed.ok && parsed.workflow.steps.length).toBe(1_000);
  });

  it('uses every kind the benchmark is meant to cover', () => {
    const kinds = new Set(workflow.steps.map((s) => s.kind));
    expect([...kinds].sort()).toEqual(['agent', 'end', 'human', 'join', 'router', 'script', 'transform']);
    expect(workflow.edges.some((e) => e.default === true)).toBe(true);
    expect(workflow.edges.some((e) => e.when !== undefined)).toBe(true);
  });

  it('has unique ids and edges between existing steps', () => {
    const ids = new Set(workflow.steps.map((s) => s.id));
    expect(ids.size).toBe(workflow.steps.length);
    expect(new Set(workflow.edges.map((e) => e.id)).size).toBe(workflow.edges.length);
    expect(workflow.edges.filter((e) => !ids.has(e.from) || !ids.has(e.to))).toEqual([]);
  });

  it('is the same for the same seed and plants the requested flaws', () => {
    expect(generateWorkflow({ steps: 300, seed: 7 })).toEqual(generateWorkflow({ steps: 300, seed: 7 }));
    expect(generateWorkflow({ steps: 1_000, seed: 1, flawEvery: 50 }).planted).toBeGreaterThan(0);
  });

  it('generates small sizes exactly', () => {
    for (const steps of [2, 3, 10]) expect(generateWorkflow({ steps }).workflow.steps).toHaveLength(steps);
  });
});

describe('generateRing', () => {
  it('generates a ring that parses', () => {
    const parsed = parseDefinitionText(JSON.stringify(generateRing(1_000)));
    expect(parsed.ok).toBe(true);
  });
});
