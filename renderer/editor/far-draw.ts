// The far level's drawing (docs/editor.md, "Zoom levels"): below zoom 0.2 a large workflow's steps
// are drawn on one <canvas> as their boxes, coloured by kind, ringed by problem and selection, and
// its edges as straight lines, instead of thousands of node elements and SVG paths that software
// raster repainted on every frame of a pan. Pure functions of a scene and the viewport: what is
// drawn, and which step a point of the canvas is on (the pointer's hit-test).
import type { Step, Workflow } from '../../shared/definition/workflow-schema.ts';
import { nodeFamily } from '../kinds/kind-views.ts';
import { NODE_HEIGHT, NODE_WIDTH } from '../graph/to-flow.ts';
import type { Layout, Point } from './doc-ops.ts';

/** A step's box is drawn at least this many screen pixels wide and high, so each stays visible. */
export const MIN_BOX_PX = 2;
/** A press this close to a step's drawn box, in screen pixels, is on the step. */
export const HIT_SLOP_PX = 4;
/** From this width on screen a box is drawn as the DOM node looks: tinted, its kind a stripe on the left. */
const DETAILED_FROM_PX = 12;

export type Family = ReturnType<typeof nodeFamily>;

export interface FarColours {
  kind: Readonly<Record<Family, string>>;
  box: string;
  border: string;
  edge: string;
  error: string;
  warning: string;
  accent: string;
}

export interface FarScene {
  steps: readonly Step[];
  edges: Workflow['edges'];
  positions: Layout;
  selectedSteps: ReadonlySet<string>;
  selectedEdges: ReadonlySet<string>;
  problems: Readonly<Record<string, 'error' | 'warning'>>;
  edgeProblems: ReadonlySet<string>;
}

/** React Flow's transform and the canvas's size in CSS pixels. */
export interface FarViewport {
  x: number;
  y: number;
  zoom: number;
  width: number;
  height: number;
}

export interface ScreenBox {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Steps being dragged, and by how much (flow units): drawn there until the drop is in the document. */
export interface FarMove {
  ids: ReadonlySet<string>;
  by: Point;
}

const positionOf = (scene: FarScene, id: string, move: FarMove | null, i: number): Point => {
  const p = scene.positions[id] ?? { x: i * 40, y: i * 40 };
  return move !== null && move.ids.has(id) ? { x: p.x + move.by.x, y: p.y + move.by.y } : p;
};

/** Each step's box on screen (CSS pixels from the canvas's top left), centred on where React Flow would draw it. */
export function screenBoxes(scene: FarScene, vp: FarViewport, move: FarMove | null): ScreenBox[] {
  const width = Math.max(MIN_BOX_PX, NODE_WIDTH * vp.zoom);
  const height = Math.max(MIN_BOX_PX, NODE_HEIGHT * vp.zoom);
  return scene.steps.map((step, i) => {
    const p = positionOf(scene, step.id, move, i);
    const cx = (p.x + NODE_WIDTH / 2) * vp.zoom + vp.x;
    const cy = (p.y + NODE_HEIGHT / 2) * vp.zoom + vp.y;
    return { id: step.id, x: cx - width / 2, y: cy - height / 2, width, height };
  });
}

const inView = (b: ScreenBox, vp: FarViewport): boolean => b.x + b.width >= 0 && b.y + b.height >= 0 && b.x <= vp.width && b.y <= vp.height;

/** The step under a point of the canvas (CSS pixels), the nearest one when several are within reach, or null. */
export function stepAt(scene: FarScene, vp: FarViewport, at: Point): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const b of screenBoxes(scene, vp, null)) {
    if (at.x < b.x - HIT_SLOP_PX || at.x > b.x + b.width + HIT_SLOP_PX || at.y < b.y - HIT_SLOP_PX || at.y > b.y + b.height + HIT_SLOP_PX) continue;
    const distance = Math.hypot(at.x - (b.x + b.width / 2), at.y - (b.y + b.height / 2));
    // Later steps are drawn over earlier ones: on a tie, the one on top.
    if (distance <= bestDistance) {
      best = b.id;
      bestDistance = distance;
    }
  }
  return best;
}

/** Draws the scene; returns how many steps were in view (drawn). */
export function drawFar(ctx: CanvasRenderingContext2D, scene: FarScene, vp: FarViewport, colours: FarColours, move: FarMove | null): number {
  const dpr = ctx.canvas.width / Math.max(1, vp.width);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, vp.width, vp.height);
  const boxes = screenBoxes(scene, vp, move);
  const byId = new Map(boxes.map((b) => [b.id, b]));

  // Edges first, under the boxes: from the source's right middle to the target's left middle.
  const plain = new Path2D();
  const marked = { selected: new Path2D(), problem: new Path2D() };
  let anyMarked = { selected: false, problem: false };
  for (const edge of scene.edges) {
    const from = byId.get(edge.from);
    const to = byId.get(edge.to);
    if (from === undefined || to === undefined) continue;
    const x1 = from.x + from.width;
    const y1 = from.y + from.height / 2;
    const x2 = to.x;
    const y2 = to.y + to.height / 2;
    if ((x1 < 0 && x2 < 0) || (x1 > vp.width && x2 > vp.width) || (y1 < 0 && y2 < 0) || (y1 > vp.height && y2 > vp.height)) continue;
    const path = scene.selectedEdges.has(edge.id) ? marked.selected : scene.edgeProblems.has(edge.id) ? marked.problem : plain;
    if (path === marked.selected) anyMarked = { ...anyMarked, selected: true };
    if (path === marked.problem) anyMarked = { ...anyMarked, problem: true };
    path.moveTo(x1, y1);
    path.lineTo(x2, y2);
  }
  ctx.lineWidth = 1;
  ctx.strokeStyle = colours.edge;
  ctx.stroke(plain);
  ctx.lineWidth = 2;
  if (anyMarked.problem) {
    ctx.strokeStyle = colours.error;
    ctx.stroke(marked.problem);
  }
  if (anyMarked.selected) {
    ctx.strokeStyle = colours.accent;
    ctx.stroke(marked.selected);
  }

  // Boxes, one path per kind colour.
  const detailed = (boxes[0]?.width ?? 0) >= DETAILED_FROM_PX;
  const byFamily = new Map<Family, Path2D>();
  const stripes = new Map<Family, Path2D>();
  const all = new Path2D();
  const rings = { error: new Path2D(), warning: new Path2D(), selected: new Path2D() };
  let drawn = 0;
  scene.steps.forEach((step, i) => {
    const b = boxes[i];
    if (b === undefined || !inView(b, vp)) return;
    drawn += 1;
    const family = nodeFamily(step.kind);
    let path = byFamily.get(family);
    if (path === undefined) {
      path = new Path2D();
      byFamily.set(family, path);
    }
    if (detailed) {
      all.rect(b.x, b.y, b.width, b.height);
      let stripe = stripes.get(family);
      if (stripe === undefined) {
        stripe = new Path2D();
        stripes.set(family, stripe);
      }
      stripe.rect(b.x, b.y, Math.max(1.5, 5 * vp.zoom), b.height);
    }
    path.rect(b.x, b.y, b.width, b.height);
    const problem = scene.problems[step.id];
    if (problem !== undefined) rings[problem].rect(b.x - 1, b.y - 1, b.width + 2, b.height + 2);
    if (scene.selectedSteps.has(step.id)) {
      // A selected step is ringed at least 10 px wide, so it is found at any zoom.
      const w = Math.max(10, b.width + 4);
      const h = Math.max(10, b.height + 4);
      rings.selected.rect(b.x + b.width / 2 - w / 2, b.y + b.height / 2 - h / 2, w, h);
    }
  });
  if (detailed) {
    ctx.fillStyle = colours.box;
    ctx.fill(all);
    ctx.globalAlpha = 0.18;
  }
  for (const [family, path] of byFamily) {
    ctx.fillStyle = colours.kind[family];
    ctx.fill(path);
  }
  ctx.globalAlpha = 1;
  if (detailed) {
    for (const [family, path] of stripes) {
      ctx.fillStyle = colours.kind[family];
      ctx.fill(path);
    }
    ctx.lineWidth = 1;
    ctx.strokeStyle = colours.border;
    ctx.stroke(all);
  }
  ctx.lineWidth = 2;
  ctx.strokeStyle = colours.warning;
  ctx.stroke(rings.warning);
  ctx.strokeStyle = colours.error;
  ctx.stroke(rings.error);
  ctx.strokeStyle = colours.accent;
  ctx.stroke(rings.selected);
  return drawn;
}
