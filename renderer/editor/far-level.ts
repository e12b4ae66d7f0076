// The editor's far level for a large workflow (docs/editor.md, "The far canvas"): when React Flow
// is given its steps hidden and no edges, so that far-canvas.tsx draws them on one canvas, and
// the switch between that and the DOM nodes, made inside the store update that crosses the zoom
// threshold and, for a workflow that opens there, from the first render.
import { useEffect, useMemo, useRef } from 'react';
import { useStore, useStoreApi, type ReactFlowState } from '@xyflow/react';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { useZoomLevel } from '../graph/semantic-zoom-style.tsx';
import { zoomLevel } from '../graph/semantic-zoom.ts';
import type { StepFlowNode } from '../graph/to-flow.ts';
import { FIT_VIEW_OPTIONS } from './canvas-camera.ts';
import type { Layout } from './doc-ops.ts';
import { layoutBounds } from './layout-bounds.ts';

/** Past this many steps React Flow draws only the elements in view. */
export const VISIBLE_ONLY_FROM = 150;
/**
 * Past this many steps the far level (zoom below 0.2) is drawn on one canvas (far-canvas.tsx), with
 * React Flow's steps hidden and no edges given to it. The same count as VISIBLE_ONLY_FROM: React
 * Flow leaves hidden nodes out of what it renders only when it renders the visible ones alone.
 */
export const FAR_CANVAS_FROM = VISIBLE_ONLY_FROM;
const hiddenCopies = new WeakMap<StepFlowNode, StepFlowNode>();
/** The node, hidden from React Flow; one copy per node object, so an unchanged node stays the same object. */
function hiddenNode(node: StepFlowNode): StepFlowNode {
  let copy = hiddenCopies.get(node);
  if (copy === undefined) {
    copy = { ...node, hidden: true };
    hiddenCopies.set(node, copy);
  }
  return copy;
}

/**
 * Hides a large workflow's nodes from React Flow the moment its zoom enters the far level, and
 * shows them the moment it leaves it, inside the store update that changed the zoom. Through the
 * `nodes` prop alone the change came a render late: React Flow first mounted every node in view
 * at the far zoom (all 5,000 after a fit) and then unmounted them.
 */
function useFarSwitch(large: boolean, nodes: StepFlowNode[]): void {
  const store = useStoreApi<StepFlowNode>();
  const latest = useRef(nodes);
  useEffect(() => {
    latest.current = nodes;
  }, [nodes]);
  useEffect(() => {
    if (!large) return;
    return store.subscribe((s) => {
      const far = zoomLevel(s.transform[2]) === 'far';
      const first = s.nodes[0];
      if (first === undefined || (first.hidden === true) === far) return;
      s.setNodes(far ? latest.current.map(hiddenNode) : latest.current);
    });
  }, [store, large]);
}

/** React Flow's view before anything moved it: identity, as no fit of a large workflow leaves it. */
const isInitialView = (s: ReactFlowState): boolean => s.transform[0] === 0 && s.transform[1] === 0 && s.transform[2] === 1;

/**
 * Whether the opening fit will show the workflow at the far level, judged once, before the pane
 * has a size: the window bounds the pane, so a fit into the window's size that is already far is
 * far in the pane too. (A workflow just under the line is judged not far; the switch then hides
 * its steps after the fit, as it would at any zoom.)
 */
function useOpensFar(doc: Workflow | null, positions: Layout): boolean {
  const judged = useRef<boolean | null>(null);
  if (judged.current === null && doc !== null) judged.current = opensFarFor(doc, positions);
  return judged.current ?? false;
}

function opensFarFor(doc: Workflow, positions: Layout): boolean {
  const { bounds, missing } = layoutBounds(doc, positions);
  if (bounds === null || missing > 0) return false;
  const room = 1 - 2 * FIT_VIEW_OPTIONS.padding;
  const zoom = Math.min((window.innerWidth * room) / (bounds.right - bounds.left), (window.innerHeight * room) / (bounds.bottom - bounds.top), FIT_VIEW_OPTIONS.maxZoom);
  return zoomLevel(zoom) === 'far';
}

export interface FarLevel {
  /** More than FAR_CANVAS_FROM steps: the far level is drawn on the canvas. */
  large: boolean;
  /** The far level is shown now: the canvas draws the steps, React Flow gets `nodes` hidden and no edges. */
  far: boolean;
  /** The nodes to give React Flow. */
  nodes: StepFlowNode[];
}

/** Whether the far canvas draws the workflow now, and the nodes React Flow gets. */
export function useFarLevel(doc: Workflow | null, positions: Layout, nodes: StepFlowNode[]): FarLevel {
  const level = useZoomLevel();
  const large = (doc?.steps.length ?? 0) > FAR_CANVAS_FROM;
  // Until the opening fit has set the view, React Flow's zoom is its initial 1: a large workflow
  // that the fit will show at the far level is far from the first render, so its steps are never
  // taken in shown and then hidden again.
  const unfitted = useStore(isInitialView);
  const opensFar = useOpensFar(large ? doc : null, positions);
  const far = large && (unfitted ? opensFar : level === 'far');
  const flowNodes = useMemo(() => (far ? nodes.map(hiddenNode) : nodes), [far, nodes]);
  useFarSwitch(large, nodes);
  return { large, far, nodes: flowNodes };
}
