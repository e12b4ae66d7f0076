import { describe, expect, it } from 'vitest';
import { layeredLayout } from '../../renderer/graph/layered-layout.ts';
import { generateWorkflow } from '../bench/generate-workflow.ts';

const box = (id: string) => ({ id, width: 100, height: 40 });
const gaps = { gapX: 20, gapY: 10 };

describe('the layered fallback layout', () => {
  it('puts each step one column right of its furthest predecessor, columns apart, rows apart', () => {
    const p = layeredLayout(
      { nodes: ['a', 'b', 'c', 'd'].map(box), edges: [{ from: 'a', to: 'b' }, { from: 'a', to: 'c' }, { from: 'b', to: 'd' }, { from: 'c', to: 'd' }, { from: 'a', to: 'd' }] },
      gaps,
    );
    expect(p).toEqual({ a: { x: 0, y: 0 }, b: { x: 120, y: 0 }, c: { x: 120, y: 50 }, d: { x: 240, y: 0 } });
  });

  it('places steps on a cycle it was not told about after the rest instead of looping', () => {
    const p = layeredLayout({ nodes: ['a', 'b', 'c'].map(box), edges: [{ from: 'b', to: 'c' }, { from: 'c', to: 'b' }] }, gaps);
    expect(Object.keys(p).sort()).toEqual(['a', 'b', 'c']);
    expect(p['b']?.x).not.toBe(p['c']?.x);
  });

  it('lays out 5,000 generated steps with no two boxes overlapping', () => {
    const { workflow } = generateWorkflow({ steps: 5000, seed: 7 });
    const nodes = workflow.steps.map((s) => box(s.id));
    const edges = workflow.edges.filter((e) => e.maxTraversals === undefined);
    const p = layeredLayout({ nodes, edges }, gaps);
    const seen = new Set<string>();
    for (const n of nodes) {
      const at = p[n.id];
      expect(at).toBeDefined();
      seen.add(`${at?.x},${at?.y}`);
    }
    expect(seen.size).toBe(nodes.length);
    for (const e of edges) expect(p[e.to]?.x ?? 0).toBeGreaterThan(p[e.from]?.x ?? 0);
  });
});
