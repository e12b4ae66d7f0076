// The editor canvas's camera, lent to the editor's commands (fit, zoom, reveal) through the store
// while the canvas is mounted. The camera moves only when asked: fit and zoom move it; reveal pans
// only when what it shows is not already in view, and never zooms in; a drop is kept inside the
// pane rather than the pane moved to it.
import { useCallback, useEffect, type RefObject } from 'react';
import { useReactFlow, type Rect } from '@xyflow/react';
import { NODE_HEIGHT, NODE_WIDTH } from '../graph/to-flow.ts';
import { positionsOf, useEditor, type EditorView } from './editor-store.ts';
import type { Point } from './doc-ops.ts';

/**
 * How the canvas fits a workflow into view: at open, with F, the fit buttons and after auto-layout.
 * No floor above the canvas's own: a fit that stops at a zoom shows a clipped workflow, and at
 * small zoom the nodes draw their titles larger themselves (the graph's semantic zoom). Hidden
 * nodes count: at the far level a large workflow's nodes are hidden from React Flow and drawn on
 * the far canvas (far-canvas.tsx).
 */
export const FIT_VIEW_OPTIONS = { padding: 0.08, maxZoom: 1.1, includeHiddenNodes: true };
/** Screen pixels kept between a revealed or dropped step and the pane's edge. */
const EDGE_ROOM = 24;
const MOVE_MS = 250;

/** The part of the flow the pane shows, in flow coordinates. */
function visibleFlow(pane: DOMRect, viewport: { x: number; y: number; zoom: number }): Rect {
  return { x: -viewport.x / viewport.zoom, y: -viewport.y / viewport.zoom, width: pane.width / viewport.zoom, height: pane.height / viewport.zoom };
}

const clamp = (v: number, low: number, high: number): number => (low > high ? (low + high) / 2 : Math.min(high, Math.max(low, v)));

/** Registers the camera of the canvas in `wrapper` with the editor while the canvas is mounted. */
export function useCanvasCamera(wrapper: RefObject<HTMLDivElement | null>): void {
  const flow = useReactFlow();
  useEffect(() => {
    const pane = (): DOMRect | undefined => wrapper.current?.getBoundingClientRect();
    /** A step's box in flow coordinates: from the document, so a step added just now has one. */
    const boxOf = (id: string): Rect | undefined => {
      const state = useEditor.getState();
      if (state.doc === null) return undefined;
      const at = positionsOf(state.doc, state.basePositions, state.openedLayout)[id];
      const measured = flow.getInternalNode(id)?.measured;
      return at === undefined ? undefined : { x: at.x, y: at.y, width: measured?.width ?? NODE_WIDTH, height: measured?.height ?? NODE_HEIGHT };
    };
    const view: EditorView = {
      centre() {
        const box = pane();
        const x = box === undefined ? window.innerWidth / 2 : box.left + box.width / 2;
        const y = box === undefined ? window.innerHeight / 2 : box.top + box.height / 2;
        return { screen: { x, y }, flow: flow.screenToFlowPosition({ x, y }) };
      },
      // React Flow queues a fit until its next node update, so a step added just now is in it.
      fitAll: () => void flow.fitView({ ...FIT_VIEW_OPTIONS, duration: MOVE_MS }),
      fitSteps: (ids, options) => void flow.fitView({ nodes: ids.map((id) => ({ id })), duration: MOVE_MS, includeHiddenNodes: true, ...options }),
      reveal(ids) {
        const box = pane();
        const boxes = ids.map(boxOf).filter((b) => b !== undefined);
        if (box === undefined || boxes.length === 0) return;
        const left = Math.min(...boxes.map((b) => b.x));
        const top = Math.min(...boxes.map((b) => b.y));
        const right = Math.max(...boxes.map((b) => b.x + b.width));
        const bottom = Math.max(...boxes.map((b) => b.y + b.height));
        const viewport = flow.getViewport();
        const seen = visibleFlow(box, viewport);
        const room = EDGE_ROOM / viewport.zoom;
        const inView = left >= seen.x + room && top >= seen.y + room && right <= seen.x + seen.width - room && bottom <= seen.y + seen.height - room;
        if (inView) return;
        if (right - left + 2 * room <= seen.width && bottom - top + 2 * room <= seen.height) {
          void flow.setCenter((left + right) / 2, (top + bottom) / 2, { zoom: viewport.zoom, duration: MOVE_MS });
        } else {
          void flow.fitView({ nodes: ids.map((id) => ({ id })), padding: 0.1, maxZoom: viewport.zoom, duration: MOVE_MS, includeHiddenNodes: true });
        }
      },
      zoomIn: () => void flow.zoomIn({ duration: 150 }),
      zoomOut: () => void flow.zoomOut({ duration: 150 }),
    };
    useEditor.getState().setView(view);
    return () => {
      if (useEditor.getState().view === view) useEditor.getState().setView(null);
    };
  }, [flow, wrapper]);
}

/**
 * Where a step dropped at a screen point goes (its centre, in flow coordinates): at the point,
 * moved just enough that the whole step is inside the pane, so a drop near the edge stays in view.
 */
export function useDropPoint(wrapper: RefObject<HTMLDivElement | null>): (screen: Point) => Point {
  const flow = useReactFlow();
  return useCallback((screen) => {
    const at = flow.screenToFlowPosition(screen);
    const box = wrapper.current?.getBoundingClientRect();
    if (box === undefined) return at;
    const viewport = flow.getViewport();
    const seen = visibleFlow(box, viewport);
    const room = EDGE_ROOM / viewport.zoom;
    return {
      x: clamp(at.x, seen.x + room + NODE_WIDTH / 2, seen.x + seen.width - room - NODE_WIDTH / 2),
      y: clamp(at.y, seen.y + room + NODE_HEIGHT / 2, seen.y + seen.height - room - NODE_HEIGHT / 2),
    };
  }, [flow, wrapper]);
}
