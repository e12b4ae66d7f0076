// Where an edge's label goes, decided for the whole graph at once: a label at the middle of its
// curve can land on a node (an edge that passes a column on its way), or not fit at all in the
// gap between two neighbours of a row. So the gaps a row's labelled edges cross are widened to
// fit their labels, and each label takes the first point along its curve, from the middle
// outwards, where it covers no node and no label placed before it. Pure: the canvas draws with
// React Flow's own bezier, and this module computes the same curve from the node positions.
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { NODE_HEIGHT, NODE_WIDTH, edgeOutcomesOf, type Positions } from './to-flow.ts';

/** The label's widest box: longer text is cut with an ellipsis (the full text is its title). */
export const LABEL_MAX_WIDTH = 200;
const LABEL_HEIGHT = 20;
/** Room kept between a label and a node's border. */
const MARGIN = 8;
/** Where along the curve a label may sit, best first: the middle, then outwards. */
const ALONG = [0.5, 0.42, 0.58, 0.34, 0.66, 0.26, 0.74, 0.18, 0.82, 0.12, 0.88];
/**
 * A curve that runs behind nodes the whole way (a loop edge back along its row) has no free
 * point: its label then sits just above the row, or below it, still over its own curve's x.
 */
const BESIDE = NODE_HEIGHT / 2 + LABEL_HEIGHT / 2 + MARGIN + 2;
const CANDIDATES: readonly LabelPlace[] = [...ALONG.map((t) => ({ t, dy: 0 })), ...ALONG.map((t) => ({ t, dy: -BESIDE })), ...ALONG.map((t) => ({ t, dy: BESIDE }))];

/** A label's place: `t` along its curve (0 source, 1 target), `dy` pixels off it (0 on it). */
export interface LabelPlace {
  t: number;
  dy: number;
}

export interface LabelledEdge {
  id: string;
  from: string;
  to: string;
  /** The label's estimated width in canvas pixels. */
  width: number;
}

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * The words an edge's label shows besides its condition (empty with no condition: no label), as
 * OutcomeEdge draws them: the handoff chip, the outcomes when they are not the plain "succeeded",
 * "default" and the loop bound.
 */
export function edgeLabelParts(edge: Workflow['edges'][number], handoff = false): string[] {
  const outcomes = edgeOutcomesOf(edge);
  const plain = outcomes.length === 1 && outcomes[0] === 'succeeded' && edge.when === undefined && edge.default !== true && edge.maxTraversals === undefined;
  // The handoff chip (an icon and the word) is about as wide as a 9-letter word.
  const chip = handoff ? ['  handoff'] : [];
  if (plain) return chip;
  const parts = [...chip, ...outcomes.map((o) => o.replace('_', ' '))];
  if (edge.default === true) parts.push('default');
  if (edge.maxTraversals !== undefined) parts.push(`↺ ${edge.maxTraversals}`);
  return parts;
}

/**
 * A label's width from its texts: bold 10.5 px outcome words (about 7.6 px a character in the
 * fonts the app falls back to), the condition in monospace (6.4 px), gaps, padding and border.
 * The condition is the part cut short when the label is wider than LABEL_MAX_WIDTH.
 */
export function labelWidth(parts: readonly string[], condition?: string): number {
  if (parts.length === 0 && condition === undefined) return 0;
  const words = parts.reduce((n, p) => n + p.length, 0) * 7.6;
  const mono = condition === undefined ? 0 : condition.length * 6.4;
  const count = parts.length + (condition === undefined ? 0 : 1);
  return Math.min(LABEL_MAX_WIDTH, Math.ceil(words + mono + (count - 1) * 4 + 16));
}

/** The labelled edges of a workflow with their widths; with `shares`, every edge shows its share ("100%"). */
export function labelledEdges(workflow: Pick<Workflow, 'edges'> & Partial<Pick<Workflow, 'steps'>>, shares = false): LabelledEdge[] {
  // An edge into a step that receives a handoff from the edge's source shows the handoff chip.
  const handoff = new Set((workflow.steps ?? []).flatMap((s) => (s.handoffFrom === undefined ? [] : [`${s.handoffFrom}>${s.id}`])));
  return workflow.edges.flatMap((e) => {
    const parts = edgeLabelParts(e, handoff.has(`${e.from}>${e.to}`));
    const width = labelWidth(shares ? ['100%', ...parts] : parts, e.when);
    return width === 0 ? [] : [{ id: e.id, from: e.from, to: e.to, width }];
  });
}

/**
 * Positions with the gaps widened that a row's labelled edge crosses: every step at or right of
 * the edge's target moves right by what the label lacks, so columns and rows keep their order.
 *
 * @example
 * widenForLabels({ a: { x: 0, y: 0 }, b: { x: 280, y: 0 } }, [{ id: 'e', from: 'a', to: 'b', width: 60 }]).b.x; // 308
 */
export function widenForLabels(positions: Positions, edges: readonly LabelledEdge[]): Positions {
  const out: Positions = { ...positions };
  const rowEdges = edges
    .filter((e) => {
      const a = positions[e.from];
      const b = positions[e.to];
      return a !== undefined && b !== undefined && b.x > a.x && Math.abs(b.y - a.y) < NODE_HEIGHT;
    })
    .sort((p, q) => (positions[p.to]?.x ?? 0) - (positions[q.to]?.x ?? 0));
  for (const e of rowEdges) {
    const a = out[e.from];
    const b = out[e.to];
    if (a === undefined || b === undefined) continue;
    const lack = e.width + 2 * MARGIN - (b.x - a.x - NODE_WIDTH);
    if (lack <= 0) continue;
    const from = b.x;
    for (const [id, p] of Object.entries(out)) if (p.x >= from) out[id] = { x: p.x + lack, y: p.y };
  }
  return out;
}

/** A point of the curve React Flow draws from a node's right handle to another's left handle. */
export function bezierPoint(sx: number, sy: number, tx: number, ty: number, t: number): { x: number; y: number } {
  // React Flow's getBezierPath with curvature 0.25: both control points are offset by the same
  // amount, half the distance forwards, or a root of it when the target lies behind the source.
  const d = tx - sx;
  const off = d >= 0 ? 0.5 * d : 0.25 * 25 * Math.sqrt(-d);
  const u = 1 - t;
  const [a, b, c, e] = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t];
  return { x: a * sx + b * (sx + off) + c * (tx - off) + e * tx, y: a * sy + b * sy + c * ty + e * ty };
}

/** Where React Flow puts a step's handles: 4 px outside its left and right borders, mid-height. */
export function handlesOf(p: { x: number; y: number }): { source: { x: number; y: number }; target: { x: number; y: number } } {
  return { source: { x: p.x + NODE_WIDTH + 4, y: p.y + NODE_HEIGHT / 2 }, target: { x: p.x - 4, y: p.y + NODE_HEIGHT / 2 } };
}

function overlap(a: Box, b: Box): number {
  const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return w > 0 && h > 0 ? w * h : 0;
}

/**
 * Where each labelled edge's label sits: the first candidate on its curve, from the middle
 * outwards, that covers no node (with a margin) and no label placed before it; else beside the
 * curve; where nothing is free, the candidate that covers least.
 *
 * @example
 * placeEdgeLabels(positions, labelledEdges(workflow)); // { write_unknown_to_verify: { t: 0.5, dy: 0 }, … }
 */
export function placeEdgeLabels(positions: Positions, edges: readonly LabelledEdge[]): Record<string, LabelPlace> {
  const nodes: Box[] = Object.values(positions).map((p) => ({ left: p.x - MARGIN, top: p.y - MARGIN, right: p.x + NODE_WIDTH + MARGIN, bottom: p.y + NODE_HEIGHT + MARGIN }));
  const placed: Box[] = [];
  const out: Record<string, LabelPlace> = {};
  for (const e of edges) {
    const a = positions[e.from];
    const b = positions[e.to];
    if (a === undefined || b === undefined) continue;
    const s = handlesOf(a).source;
    const t = handlesOf(b).target;
    let best: { place: LabelPlace; cost: number; box: Box | null } = { place: { t: 0.5, dy: 0 }, cost: Infinity, box: null };
    for (const place of CANDIDATES) {
      const c = bezierPoint(s.x, s.y, t.x, t.y, place.t);
      const y = c.y + place.dy;
      const box = { left: c.x - e.width / 2, top: y - LABEL_HEIGHT / 2, right: c.x + e.width / 2, bottom: y + LABEL_HEIGHT / 2 };
      // Labels weigh less than nodes: text over text is still read, a node hidden is not.
      const cost = nodes.reduce((n, r) => n + overlap(box, r), 0) + placed.reduce((n, r) => n + overlap(box, r) / 4, 0);
      if (cost < best.cost) best = { place, cost, box };
      if (cost === 0) break;
    }
    out[e.id] = best.place;
    if (best.box !== null) placed.push(best.box);
  }
  return out;
}
