// Edge labels on the seven examples' graphs: with the layout the canvas draws (the file's layout,
// spread to fit, gaps widened for labels), no label box covers a node, and the curve the placement
// walks is React Flow's own.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getBezierPath, Position } from '@xyflow/system';
import { describe, expect, it } from 'vitest';
import { bezierPoint, handlesOf, labelledEdges, placeEdgeLabels, widenForLabels } from '../../renderer/graph/edge-label-layout.ts';
import { filePositions, NODE_HEIGHT, NODE_WIDTH, type Positions } from '../../renderer/graph/to-flow.ts';
import { parseWorkflow } from '../engine/harness.ts';

const examples = join(import.meta.dirname, '..', '..', 'examples');
const files = readdirSync(examples).filter((f) => f.endsWith('.weft.json'));

/** The label boxes that cover a node, as "edge over step". */
function labelsOverNodes(positions: Positions, workflow: ReturnType<typeof parseWorkflow>): string[] {
  const edges = labelledEdges(workflow);
  const places = placeEdgeLabels(positions, edges);
  const hits: string[] = [];
  for (const e of edges) {
    const a = positions[e.from];
    const b = positions[e.to];
    const place = places[e.id];
    if (a === undefined || b === undefined || place === undefined) throw new Error(`no place for ${e.id}`);
    const s = handlesOf(a).source;
    const t = handlesOf(b).target;
    const c = bezierPoint(s.x, s.y, t.x, t.y, place.t);
    const box = { left: c.x - e.width / 2, right: c.x + e.width / 2, top: c.y + place.dy - 10, bottom: c.y + place.dy + 10 };
    for (const [id, p] of Object.entries(positions)) {
      if (box.left < p.x + NODE_WIDTH && box.right > p.x && box.top < p.y + NODE_HEIGHT && box.bottom > p.y) hits.push(`${e.id} over ${id}`);
    }
  }
  return hits;
}

describe('edge label placement', () => {
  it('finds the seven examples', () => {
    expect(files).toHaveLength(7);
  });

  it.each(files)('%s: no label covers a node', (file) => {
    const workflow = parseWorkflow(JSON.parse(readFileSync(join(examples, file), 'utf8')));
    const spread = filePositions(workflow);
    if (spread === null) throw new Error(`${file} has no layout`);
    expect(labelsOverNodes(widenForLabels(spread, labelledEdges(workflow)), workflow)).toEqual([]);
  });

  it('widens the gaps a row’s label needs: record-update’s labels then all sit on their curves', () => {
    const workflow = parseWorkflow(JSON.parse(readFileSync(join(examples, 'record-update.weft.json'), 'utf8')));
    const spread = filePositions(workflow);
    if (spread === null) throw new Error('record-update has no layout');
    // In the file's own gaps, write's "unknown" label has no free point on its curve: it is put beside it.
    expect(placeEdgeLabels(spread, labelledEdges(workflow))['write_unknown_to_verify']?.dy).not.toBe(0);
    const widened = widenForLabels(spread, labelledEdges(workflow));
    // Widened, every label of record-update sits on its own curve.
    expect(Object.values(placeEdgeLabels(widened, labelledEdges(workflow))).map((p) => p.dy)).toEqual(labelledEdges(workflow).map(() => 0));
    // Rows and columns keep their order; only gaps grow.
    const order = (p: Positions) => Object.entries(p).sort(([, a], [, b]) => a.x - b.x || a.y - b.y).map(([id]) => id);
    expect(order(widened)).toEqual(order(spread));
    for (const [id, p] of Object.entries(widened)) expect(p.y).toBe(spread[id]?.y);
  });

  it('walks the curve React Flow draws', () => {
    for (const [sx, sy, tx, ty] of [
      [0, 0, 300, 120],
      [500, 40, 100, 40],
      [10, 300, 20, -50],
    ] as const) {
      const [, labelX, labelY] = getBezierPath({ sourceX: sx, sourceY: sy, targetX: tx, targetY: ty, sourcePosition: Position.Right, targetPosition: Position.Left });
      const mid = bezierPoint(sx, sy, tx, ty, 0.5);
      expect(mid.x).toBeCloseTo(labelX, 6);
      expect(mid.y).toBeCloseTo(labelY, 6);
    }
  });
});
