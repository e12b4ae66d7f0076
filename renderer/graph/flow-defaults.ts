// The React Flow settings every canvas of the app shares: node and edge types, arrowheads, and no
// attribution badge. One object each, so React Flow never sees a new one and re-registers.
import { MarkerType } from '@xyflow/react';
import { StepNode } from './step-node.tsx';
import { OutcomeEdge } from './outcome-edge.tsx';

export const NODE_TYPES = { step: StepNode };
export const EDGE_TYPES = { outcome: OutcomeEdge };
/**
 * The arrowhead is sized in the canvas's own units, not in stroke widths (React Flow's default):
 * one marker serves every edge, and a selected or taken edge is drawn heavier, which would have
 * drawn its arrowhead larger than the others. 26 is the size the thinnest edge (1.6) had.
 */
export const DEFAULT_EDGE_OPTIONS = { markerEnd: { type: MarkerType.ArrowClosed, width: 26, height: 26, markerUnits: 'userSpaceOnUse' } };
export const PRO_OPTIONS = { hideAttribution: true };
/**
 * How far out a canvas may zoom: far enough to show a whole workflow of thousands of steps (the
 * bench's 1,000-step chain is about 200,000 px wide, its 5,000-step one about 1,000,000 px);
 * nodes there are drawn as their boxes alone (semantic-zoom.ts).
 */
export const CANVAS_MIN_ZOOM = 0.0005;
