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

/** The scene as flat arrays, built once per change of the scene: a frame then allocates nothing per step. */
export interface FarGeometry {
  ids: readonly string[];
  families: readonly Family[];
  x: Float64Array;
  y: Float64Array;
  /** 0 none, 1 warning, 2 error. */
  problem: Uint8Array;
  selected: Uint8Array;
  edgeFrom: Int32Array;
  edgeTo: Int32Array;
  /** 0 plain, 1 with problems, 2 selected. */
  edgeMark: Uint8Array;
}

export function farGeometry(scene: FarScene): FarGeometry {
  const n = scene.steps.length;
  const index = new Map<string, number>();
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  const problem = new Uint8Array(n);
  const selected = new Uint8Array(n);
  const families: Family[] = [];
  scene.steps.forEach((step, i) => {
    index.set(step.id, i);
    const p = positionOf(scene, step.id, null, i);
    x[i] = p.x;
    y[i] = p.y;
    const mark = scene.problems[step.id];
    problem[i] = mark === 'error' ? 2 : mark === 'warning' ? 1 : 0;
    selected[i] = scene.selectedSteps.has(step.id) ? 1 : 0;
    families.push(nodeFamily(step.kind));
  });
  const edges = scene.edges.filter((e) => index.has(e.from) && index.has(e.to));
  const edgeFrom = new Int32Array(edges.length);
  const edgeTo = new Int32Array(edges.length);
  const edgeMark = new Uint8Array(edges.length);
  edges.forEach((e, k) => {
    edgeFrom[k] = index.get(e.from) ?? 0;
    edgeTo[k] = index.get(e.to) ?? 0;
    edgeMark[k] = scene.selectedEdges.has(e.id) ? 2 : scene.edgeProblems.has(e.id) ? 1 : 0;
  });
  return { ids: scene.steps.map((s) => s.id), families, x, y, problem, selected, edgeFrom, edgeTo, edgeMark };
}

/** Draws the scene; returns how many steps were in view (drawn). */
export function drawFar(ctx: CanvasRenderingContext2D, geo: FarGeometry, vp: FarViewport, colours: FarColours, move: FarMove | null): number {
  const dpr = ctx.canvas.width / Math.max(1, vp.width);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, vp.width, vp.height);
  const n = geo.ids.length;
  const width = Math.max(MIN_BOX_PX, NODE_WIDTH * vp.zoom);
  const height = Math.max(MIN_BOX_PX, NODE_HEIGHT * vp.zoom);
  // Each box's top left on screen, centred where React Flow would draw the step.
  const bx = new Float64Array(n);
  const by = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const moved = move !== null && move.ids.has(geo.ids[i] ?? '');
    const fx = (geo.x[i] ?? 0) + (moved ? move.by.x : 0);
    const fy = (geo.y[i] ?? 0) + (moved ? move.by.y : 0);
    bx[i] = (fx + NODE_WIDTH / 2) * vp.zoom + vp.x - width / 2;
    by[i] = (fy + NODE_HEIGHT / 2) * vp.zoom + vp.y - height / 2;
  }

  // Edges first, under the boxes: from the source's right middle to the target's left middle.
  const paths = [new Path2D(), new Path2D(), new Path2D()];
  const used = [false, false, false];
  for (let k = 0; k < geo.edgeFrom.length; k++) {
    const a = geo.edgeFrom[k] ?? 0;
    const b = geo.edgeTo[k] ?? 0;
    const x1 = (bx[a] ?? 0) + width;
    const y1 = (by[a] ?? 0) + height / 2;
    const x2 = bx[b] ?? 0;
    const y2 = (by[b] ?? 0) + height / 2;
    if ((x1 < 0 && x2 < 0) || (x1 > vp.width && x2 > vp.width) || (y1 < 0 && y2 < 0) || (y1 > vp.height && y2 > vp.height)) continue;
    const mark = geo.edgeMark[k] ?? 0;
    used[mark] = true;
    paths[mark]?.moveTo(x1, y1);
    paths[mark]?.lineTo(x2, y2);
  }
  const edgeStyle = [colours.edge, colours.error, colours.accent];
  paths.forEach((path, mark) => {
    if (!used[mark]) return;
    ctx.lineWidth = mark === 0 ? 1 : 2;
    ctx.strokeStyle = edgeStyle[mark] ?? colours.edge;
    ctx.stroke(path);
  });

  // Boxes, one path per kind colour.
  const detailed = width >= DETAILED_FROM_PX;
  const byFamily = new Map<Family, Path2D>();
  const stripes = new Map<Family, Path2D>();
  const all = new Path2D();
  const rings = [new Path2D(), new Path2D(), new Path2D()];
  const selectedRing = new Path2D();
  const stripe = Math.max(1.5, 5 * vp.zoom);
  let drawn = 0;
  for (let i = 0; i < n; i++) {
    const x = bx[i] ?? 0;
    const y = by[i] ?? 0;
    if (x + width < 0 || y + height < 0 || x > vp.width || y > vp.height) continue;
    drawn += 1;
    const family = geo.families[i] ?? 'work';
    let path = byFamily.get(family);
    if (path === undefined) {
      path = new Path2D();
      byFamily.set(family, path);
    }
    path.rect(x, y, width, height);
    if (detailed) {
      all.rect(x, y, width, height);
      let s = stripes.get(family);
      if (s === undefined) {
        s = new Path2D();
        stripes.set(family, s);
      }
      s.rect(x, y, stripe, height);
    }
    const problem = geo.problem[i] ?? 0;
    if (problem > 0) rings[problem]?.rect(x - 1, y - 1, width + 2, height + 2);
    if (geo.selected[i] === 1) {
      // A selected step is ringed at least 10 px wide, so it is found at any zoom.
      const w = Math.max(10, width + 4);
      const h = Math.max(10, height + 4);
      selectedRing.rect(x + width / 2 - w / 2, y + height / 2 - h / 2, w, h);
    }
  }
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
  ctx.stroke(rings[1] ?? new Path2D());
  ctx.strokeStyle = colours.error;
  ctx.stroke(rings[2] ?? new Path2D());
  ctx.strokeStyle = colours.accent;
  ctx.stroke(selectedRing);
  return drawn;
}
