// The React Flow settings every canvas of the app shares: node and edge types, arrowheads, and no
// attribution badge. One object each, so React Flow never sees a new one and re-registers.
import { MarkerType } from '@xyflow/react';
import { StepNode } from './step-node.tsx';
import { OutcomeEdge } from './outcome-edge.tsx';

export const NODE_TYPES = { step: StepNode };
export const EDGE_TYPES = { outcome: OutcomeEdge };
export const DEFAULT_EDGE_OPTIONS = { markerEnd: { type: MarkerType.ArrowClosed, width: 16, height: 16 } };
export const PRO_OPTIONS = { hideAttribution: true };
