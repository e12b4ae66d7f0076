// The minimap of a large workflow (more than 150 steps), at every zoom: the steps' boxes drawn
// once per change into a bitmap, and the view's frame over it on each move of the view, on one
// small canvas in React Flow's MiniMap's place (same place, size and colours). React Flow's
// MiniMap leaves hidden nodes out, and at the far level every step is hidden from React Flow
// (far-canvas.tsx); and it keeps one store subscription per step, thousands of selectors run on
// every frame of a pan. A press or a drag on it centres the view on that point, at the same zoom.
import { useEffect, useMemo, useRef, type PointerEvent } from 'react';
import { Panel, useReactFlow, useStoreApi, type ReactFlowState } from '@xyflow/react';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { useTheme } from '../core/theme-store.ts';
import { NODE_HEIGHT, NODE_WIDTH } from '../graph/to-flow.ts';
import type { Layout } from './doc-ops.ts';
import { layoutBounds } from './layout-bounds.ts';

interface Props {
  doc: Workflow;
  positions: Layout;
  size: { width: number; height: number };
}

interface Frame {
  /** Flow units to minimap pixels. */
  scale: number;
  /** The flow point drawn at the minimap's top left. */
  x: number;
  y: number;
}

const OUTER_PAD = 5;

export function CanvasMinimap({ doc, positions, size }: Props) {
  const store = useStoreApi();
  const flow = useReactFlow();
  const theme = useTheme((s) => s.theme);
  const canvas = useRef<HTMLCanvasElement>(null);
  const bounds = useMemo(() => layoutBounds(doc, positions).bounds ?? { left: 0, top: 0, right: 1, bottom: 1 }, [doc, positions]);
  const live = useRef({ frame: null as Frame | null, raf: 0 });

  useEffect(() => {
    const el = canvas.current;
    const ctx = el?.getContext('2d');
    if (el === null || el === undefined || ctx === null || ctx === undefined) return;
    const dpr = window.devicePixelRatio || 1;
    el.width = Math.round(size.width * dpr);
    el.height = Math.round(size.height * dpr);
    const style = getComputedStyle(el);
    const colour = (name: string, fallback: string): string => style.getPropertyValue(name).trim() || fallback;
    const nodeColour = colour('--minimap-node', '#c3c9d3');
    const mask = colour('--minimap-mask', 'rgb(214 219 227 / 55%)');
    const stroke = colour('--border-strong', '#c3c9d3');
    const background = colour('--bg-raised', '#ffffff');
    // The frame is the workflow's bounds, so the steps are drawn once per change into a bitmap;
    // each frame copies it and draws the view's frame over it.
    const w = bounds.right - bounds.left;
    const h = bounds.bottom - bounds.top;
    const scale = Math.min((size.width - 2 * OUTER_PAD) / w, (size.height - 2 * OUTER_PAD) / h);
    const frame = { scale, x: bounds.left - (size.width / scale - w) / 2, y: bounds.top - (size.height / scale - h) / 2 };
    live.current.frame = frame;
    const steps = document.createElement('canvas');
    steps.width = el.width;
    steps.height = el.height;
    const sc = steps.getContext('2d');
    if (sc === null) return;
    sc.setTransform(dpr, 0, 0, dpr, 0, 0);
    sc.fillStyle = background;
    sc.fillRect(0, 0, size.width, size.height);
    sc.fillStyle = nodeColour;
    sc.beginPath();
    for (const step of doc.steps) {
      const p = positions[step.id];
      if (p === undefined) continue;
      sc.rect((p.x - frame.x) * scale, (p.y - frame.y) * scale, Math.max(1, NODE_WIDTH * scale), Math.max(1, NODE_HEIGHT * scale));
    }
    sc.fill();
    const draw = (s: ReactFlowState) => {
      live.current.raf = 0;
      const [tx, ty, zoom] = s.transform;
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.drawImage(steps, 0, 0);
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      const vx = (-tx / zoom - frame.x) * scale;
      const vy = (-ty / zoom - frame.y) * scale;
      const vw = (s.width / zoom) * scale;
      const vh = (s.height / zoom) * scale;
      ctx.fillStyle = mask;
      ctx.beginPath();
      ctx.rect(0, 0, size.width, size.height);
      ctx.rect(vx, vy, vw, vh);
      ctx.fill('evenodd');
      ctx.strokeStyle = stroke;
      ctx.lineWidth = 1;
      ctx.strokeRect(vx, vy, vw, vh);
    };
    const schedule = () => {
      if (live.current.raf === 0) live.current.raf = requestAnimationFrame(() => draw(store.getState()));
    };
    schedule();
    let last = store.getState().transform;
    const unsubscribe = store.subscribe((s) => {
      if (s.transform === last) return;
      last = s.transform;
      schedule();
    });
    return () => {
      unsubscribe();
      cancelAnimationFrame(live.current.raf);
      live.current.raf = 0;
    };
  }, [store, bounds, doc.steps, positions, size, theme]);

  const centreAt = (e: PointerEvent<HTMLCanvasElement>) => {
    const frame = live.current.frame;
    if (frame === null) return;
    const box = e.currentTarget.getBoundingClientRect();
    const x = frame.x + (e.clientX - box.left) / frame.scale;
    const y = frame.y + (e.clientY - box.top) / frame.scale;
    void flow.setCenter(x, y, { zoom: store.getState().transform[2] });
  };

  return (
    <Panel position="bottom-right" className="react-flow__minimap minimap canvas-minimap" style={size}>
      <canvas
        ref={canvas}
        role="img"
        aria-label="minimap: press or drag to move the view"
        data-testid="canvas-minimap"
        style={{ width: size.width, height: size.height, display: 'block', cursor: 'pointer' }}
        onPointerDown={(e) => {
          e.currentTarget.setPointerCapture(e.pointerId);
          centreAt(e);
        }}
        onPointerMove={(e) => {
          if (e.currentTarget.hasPointerCapture(e.pointerId)) centreAt(e);
        }}
      />
    </Panel>
  );
}
