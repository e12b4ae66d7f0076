// The editor's far level for a large workflow (docs/editor.md, "Zoom levels"): below zoom 0.2 the
// canvas draws every step and edge on this one <canvas> (far-draw.ts) while React Flow keeps the
// steps hidden and no edges, so a pan or a drag at the whole view repaints one bitmap instead of
// thousands of elements. The pointer still works on the steps: a press on a step is hit-tested
// here, before React Flow's pane sees it; a click selects the step (Shift, Ctrl or Cmd adds or
// removes it), a drag moves it (or the selection it belongs to) and is written to the document at
// the drop, as one gesture (one undo step), through the same edit as React Flow's drag. A press
// anywhere else goes on to React Flow and pans. Rendered inside <ReactFlow>.
import { useEffect, useMemo, useRef } from 'react';
import { useStore, useStoreApi, type ReactFlowState } from '@xyflow/react';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { Diagnostic } from '../api/api-types.ts';
import { useTheme } from '../core/theme-store.ts';
import { positionsOf, useEditor } from './editor-store.ts';
import { useEditorPrefs } from './editor-prefs.ts';
import { withPositions, type Layout, type Point } from './doc-ops.ts';
import { drawFar, farGeometry, screenBoxes, stepAt, type Family, type FarColours, type FarMove, type FarScene, type FarViewport, type ScreenBox } from './far-draw.ts';

/** A press that moves less than this (screen pixels) before it is released is a click. */
const DRAG_FROM_PX = 3;
const GRID = 16;
const FAMILIES: readonly Family[] = ['work', 'data', 'people', 'time', 'flow', 'nested', 'end'];

/**
 * Test and bench hook, read-only, present while the far canvas is drawn: how many steps it drew,
 * each step's box and the step under a point (viewport pixels, as `elementFromPoint` takes them).
 */
export interface FarViewProbe {
  drawn(): number;
  boxes(): ScreenBox[];
  nodeAt(x: number, y: number): string | null;
}

declare global {
  interface Window {
    __weftFarView?: FarViewProbe;
  }
}

interface Props {
  doc: Workflow;
  positions: Layout;
  problemsByStep: Readonly<Record<string, readonly Diagnostic[]>>;
  problemsByEdge: Readonly<Record<string, readonly Diagnostic[]>>;
}

interface Drag {
  id: string;
  ids: ReadonlySet<string>;
  start: Point;
  zoom: number;
  moved: boolean;
  by: Point;
  multi: boolean;
  /** Dropped: drawn where it was dropped until the document (the next scene) has it. */
  done: boolean;
}

/** The kind colours and the rest, read from the theme's CSS (graph.css) so canvas and DOM nodes agree. */
function readColours(root: HTMLElement): FarColours {
  const probe = document.createElement('div');
  probe.className = 'step-node';
  probe.style.display = 'none';
  root.appendChild(probe);
  const read = (name: string, fallback: string): string => getComputedStyle(probe).getPropertyValue(name).trim() || fallback;
  const kind: Record<Family, string> = { work: '', data: '', people: '', time: '', flow: '', nested: '', end: '' };
  for (const family of FAMILIES) {
    probe.dataset['family'] = family;
    kind[family] = read('--kind', '#64748b');
  }
  const colours: FarColours = {
    kind,
    box: read('--bg-raised', '#ffffff'),
    border: read('--border-strong', '#c3c9d3'),
    edge: read('--xy-edge-stroke', read('--border-strong', '#c3c9d3')),
    error: read('--error', '#b42828'),
    warning: read('--warning', '#8c5400'),
    accent: read('--accent', '#2b4fe4'),
  };
  probe.remove();
  return colours;
}

const viewportOf = (s: ReactFlowState): FarViewport => ({ x: s.transform[0], y: s.transform[1], zoom: s.transform[2], width: s.width, height: s.height });
const domOf = (s: ReactFlowState): HTMLDivElement | null => s.domNode;
const snapped = (v: number): number => Math.round(v / GRID) * GRID;

export function FarCanvas({ doc, positions, problemsByStep, problemsByEdge }: Props) {
  const store = useStoreApi();
  const dom = useStore(domOf);
  const theme = useTheme((s) => s.theme);
  const selection = useEditor((s) => s.selection);
  const canvas = useRef<HTMLCanvasElement>(null);
  const scene = useMemo<FarScene>(() => {
    const problems: Record<string, 'error' | 'warning'> = {};
    for (const [id, list] of Object.entries(problemsByStep)) {
      if (list.some((d) => d.severity === 'error')) problems[id] = 'error';
      else if (list.length > 0) problems[id] = 'warning';
    }
    const edgeProblems = new Set(Object.entries(problemsByEdge).filter(([, list]) => list.length > 0).map(([id]) => id));
    return { steps: doc.steps, edges: doc.edges, positions, selectedSteps: new Set(selection.steps), selectedEdges: new Set(selection.edges), problems, edgeProblems };
  }, [doc.steps, doc.edges, positions, selection, problemsByStep, problemsByEdge]);
  const geometry = useMemo(() => farGeometry(scene), [scene]);
  // What the frame callback and the pointer handlers read: the latest props, without re-subscribing.
  const live = useRef({ scene, geometry, colours: null as FarColours | null, drag: null as Drag | null, drawn: 0, frame: 0 });

  const paint = useMemo(() => {
    const draw = () => {
      live.current.frame = 0;
      const el = canvas.current;
      const ctx = el?.getContext('2d');
      const { geometry: now, colours, drag } = live.current;
      if (el === null || el === undefined || ctx === null || ctx === undefined || colours === null) return;
      const vp = viewportOf(store.getState());
      const dpr = window.devicePixelRatio || 1;
      const w = Math.round(vp.width * dpr);
      const h = Math.round(vp.height * dpr);
      if (el.width !== w || el.height !== h) {
        el.width = w;
        el.height = h;
      }
      const move: FarMove | null = drag === null || !drag.moved ? null : { ids: drag.ids, by: drag.by };
      live.current.drawn = drawFar(ctx, now, vp, colours, move);
    };
    return () => {
      if (live.current.frame === 0) live.current.frame = requestAnimationFrame(draw);
    };
  }, [store]);

  useEffect(() => {
    live.current.scene = scene;
    live.current.geometry = geometry;
    // The drop is in the document now: draw from it, not from the drag.
    if (live.current.drag?.done === true) live.current.drag = null;
    paint();
  }, [scene, geometry, paint]);

  useEffect(() => {
    if (dom === null) return;
    live.current.colours = readColours(dom);
    paint();
  }, [dom, theme, paint]);

  // Redrawn when React Flow's transform or size changes (a pan, a zoom, a resize).
  useEffect(() => {
    let last = viewportOf(store.getState());
    return store.subscribe((s) => {
      const vp = viewportOf(s);
      if (vp.x === last.x && vp.y === last.y && vp.zoom === last.zoom && vp.width === last.width && vp.height === last.height) return;
      last = vp;
      paint();
    });
  }, [store, paint]);

  useEffect(() => () => cancelAnimationFrame(live.current.frame), []);

  // The pointer on the steps, ahead of React Flow's pane (capture phase on its root element).
  useEffect(() => {
    if (dom === null) return;
    let swallowClick = false;
    const local = (e: { clientX: number; clientY: number }): Point => {
      const box = dom.getBoundingClientRect();
      return { x: e.clientX - box.left, y: e.clientY - box.top };
    };
    const onMove = (e: PointerEvent) => {
      const drag = live.current.drag;
      if (drag === null) return;
      const dx = e.clientX - drag.start.x;
      const dy = e.clientY - drag.start.y;
      if (!drag.moved && Math.hypot(dx, dy) < DRAG_FROM_PX) return;
      drag.moved = true;
      drag.by = { x: dx / drag.zoom, y: dy / drag.zoom };
      paint();
    };
    const onUp = () => {
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', onUp);
      window.removeEventListener('pointercancel', onUp);
      const drag = live.current.drag;
      if (drag === null) return;
      if (drag.moved) {
        drag.done = true;
        // A drop that changed nothing (snapped back where it was) brings no new scene to end the drag.
        if (!drop(drag)) live.current.drag = null;
      } else {
        live.current.drag = null;
        choose(drag);
      }
      paint();
    };
    const onDown = (e: PointerEvent) => {
      swallowClick = false;
      if (e.button !== 0 || !(e.target instanceof Element) || !e.target.classList.contains('react-flow__pane')) return;
      const id = stepAt(live.current.scene, viewportOf(store.getState()), local(e));
      if (id === null) return;
      // Ours: React Flow's pane neither pans (no mousedown follows) nor clears the selection on the click.
      e.preventDefault();
      e.stopPropagation();
      swallowClick = true;
      dom.focus({ preventScroll: true });
      const selected = useEditor.getState().selection.steps;
      const ids = new Set(selected.includes(id) ? selected : [id]);
      live.current.drag = { id, ids, start: { x: e.clientX, y: e.clientY }, zoom: store.getState().transform[2], moved: false, by: { x: 0, y: 0 }, multi: e.shiftKey || e.ctrlKey || e.metaKey, done: false };
      window.addEventListener('pointermove', onMove);
      window.addEventListener('pointerup', onUp);
      window.addEventListener('pointercancel', onUp);
    };
    const onClick = (e: MouseEvent) => {
      if (!swallowClick) return;
      swallowClick = false;
      e.stopPropagation();
    };
    dom.addEventListener('pointerdown', onDown, { capture: true });
    dom.addEventListener('click', onClick, { capture: true });
    return () => {
      dom.removeEventListener('pointerdown', onDown, { capture: true });
      dom.removeEventListener('click', onClick, { capture: true });
      onUp();
    };
  }, [dom, store, paint]);

  // The hook for tests and the bench.
  useEffect(() => {
    if (dom === null) return;
    const toPage = (b: ScreenBox): ScreenBox => {
      const box = dom.getBoundingClientRect();
      return { ...b, x: b.x + box.left, y: b.y + box.top };
    };
    const probe: FarViewProbe = {
      drawn: () => live.current.drawn,
      boxes: () => screenBoxes(live.current.scene, viewportOf(store.getState()), null).map(toPage),
      nodeAt: (x, y) => {
        const box = dom.getBoundingClientRect();
        return stepAt(live.current.scene, viewportOf(store.getState()), { x: x - box.left, y: y - box.top });
      },
    };
    window.__weftFarView = probe;
    return () => {
      if (window.__weftFarView === probe) delete window.__weftFarView;
    };
  }, [dom, store]);

  return (
    <canvas
      ref={canvas}
      className="far-canvas"
      data-testid="far-canvas"
      role="img"
      aria-label={`${doc.steps.length} steps drawn as boxes at this zoom: click one to select it, zoom in to reach the steps by keyboard`}
    />
  );
}

/** A click on a step: selects it, or with Shift, Ctrl or Cmd adds it to the selection or takes it out. */
function choose(drag: Drag): void {
  const state = useEditor.getState();
  if (!drag.multi) {
    state.select({ steps: [drag.id], edges: [] });
    return;
  }
  const steps = new Set(state.selection.steps);
  if (steps.has(drag.id)) steps.delete(drag.id);
  else steps.add(drag.id);
  state.select({ steps: [...steps], edges: state.selection.edges });
}

/**
 * The drop: the moved steps' new places, as one gesture (one undo step), snapped to the grid when
 * the editor snaps. Returns whether the document changed.
 */
function drop(drag: Drag): boolean {
  const state = useEditor.getState();
  const doc = state.doc;
  if (doc === null) return false;
  const base = positionsOf(doc, state.basePositions, state.openedLayout);
  const snap = useEditorPrefs.getState().snapToGrid;
  const moves: Layout = {};
  for (const id of drag.ids) {
    const p = base[id];
    if (p === undefined) continue;
    const x = p.x + drag.by.x;
    const y = p.y + drag.by.y;
    moves[id] = snap ? { x: snapped(x), y: snapped(y) } : { x, y };
  }
  state.beginGesture();
  state.edit((d) => withPositions(d, base, moves));
  state.endGesture();
  return useEditor.getState().doc !== doc;
}
