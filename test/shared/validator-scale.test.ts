// Large and hostile graphs must give diagnostics, never a stack overflow or a hang.
import { describe, expect, it } from 'vitest';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { validateWorkflow } from '../../shared/validator/validate-workflow.ts';

const ring = (n: number, loopEdge: boolean): Workflow => ({
  format: 'weft/v1',
  id: 'ring',
  version: 1,
  name: 'Ring',
  steps: [
    { id: 'start', kind: 'transform', config: { expression: 'input' } },
    ...Array.from({ length: n }, (_, i) => ({ id: `s${i}`, kind: 'transform' as const, config: { expression: 'input' } })),
    { id: 'done', kind: 'end' },
  ],
  edges: [
    { id: 'in', from: 'start', to: 's0' },
    ...Array.from({ length: n - 1 }, (_, i) => ({ id: `e${i}`, from: `s${i}`, to: `s${i + 1}` })),
    { id: 'back', from: `s${n - 1}`, to: 's0', when: 'false', ...(loopEdge ? { maxTraversals: 2 } : {}) },
    { id: 'out', from: `s${n - 1}`, to: 'done' },
  ],
});

describe('validator on large graphs', () => {
  it('reports one unbounded-cycle for a 10,000-step cycle', () => {
    const ds = validateWorkflow(ring(10_000, false));
    expect(ds.map((d) => [d.code, d.edgeId])).toEqual([['unbounded-cycle', 'back']]);
  });

  it('accepts the same cycle with maxTraversals', () => {
    expect(validateWorkflow(ring(10_000, true))).toEqual([]);
  });

  it('reports a ring with no entry once, not once per step', () => {
    const w = ring(10_000, false);
    w.edges = w.edges.filter((e) => e.id !== 'in');
    w.steps = w.steps.filter((s) => s.id !== 'start');
    const codes = validateWorkflow(w).map((d) => d.code);
    expect(codes).toContain('no-entry-step');
    expect(codes.length).toBeLessThan(5);
  });

  it('reads a 10,000-step chain where the last step reads the first', () => {
    const w = ring(10_000, true);
    w.steps.push({ id: 'last', kind: 'transform', config: { expression: 'steps.s0.output' } });
    w.edges = w.edges.map((e) => (e.id === 'out' ? { ...e, to: 'last' } : e));
    w.edges.push({ id: 'fin', from: 'last', to: 'done' });
    expect(validateWorkflow(w)).toEqual([]);
  });

  it('turns a pathologically nested expression into a syntax finding', () => {
    const w = ring(3, true);
    const deep = '('.repeat(20_000) + '1' + ')'.repeat(20_000);
    w.steps[0] = { id: 'start', kind: 'transform', config: { expression: deep } };
    const ds = validateWorkflow(w);
    expect(ds.map((d) => d.code)).toEqual(['expression-syntax']);
  });
});

describe('the workflow output expression', () => {
  const base = (output: string): Workflow => ({
    format: 'weft/v1',
    id: 'out',
    version: 1,
    name: 'Output',
    input: { type: 'object', properties: { orderId: { type: 'string' } } },
    output,
    steps: [
      { id: 'a', kind: 'transform', config: { expression: '1' }, output: { type: 'object', properties: { total: { type: 'number' } } } },
      { id: 'b', kind: 'transform', config: { expression: '2' } },
      { id: 'done', kind: 'end' },
      { id: 'skipped', kind: 'end' },
    ],
    edges: [
      { id: 'ab', from: 'a', to: 'b', when: 'output.total > 0' },
      { id: 'bd', from: 'b', to: 'done' },
      { id: 'as', from: 'a', to: 'skipped', default: true },
    ],
  } as Workflow);

  it('is checked like every other expression: unknown steps and undeclared fields, at $.output', () => {
    const ds = validateWorkflow(base('{ "id": input.orderId, "x": steps.nope.output, "t": steps.a.output.totl, "s": input.ordr }'));
    expect(ds.filter((d) => d.path === '$.output').map((d) => d.code).sort()).toEqual(['undeclared-field', 'undeclared-field', 'unknown-step-reference']);
  });

  it('may name a step that not every path runs (it is read when the run ends), and reports syntax errors', () => {
    expect(validateWorkflow(base('{ "total": steps.a.output.total, "b": steps.b.output }')).filter((d) => d.path === '$.output')).toEqual([]);
    expect(validateWorkflow(base('steps.a.output.')).filter((d) => d.path === '$.output').map((d) => d.code)).toEqual(['expression-syntax']);
  });
});
