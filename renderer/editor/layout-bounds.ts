// The box around a workflow's steps as laid out (each step NODE_WIDTH × NODE_HEIGHT at its
// position): what the minimap frames and what the opening fit will show.
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { NODE_HEIGHT, NODE_WIDTH } from '../graph/to-flow.ts';
import type { Layout } from './doc-ops.ts';

export interface Bounds {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The steps' bounds; null when no step has a position yet. `missing` counts the steps without one. */
export function layoutBounds(doc: Workflow, positions: Layout): { bounds: Bounds | null; missing: number } {
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  let missing = 0;
  for (const step of doc.steps) {
    const p = positions[step.id];
    if (p === undefined) {
      missing++;
      continue;
    }
    left = Math.min(left, p.x);
    top = Math.min(top, p.y);
    right = Math.max(right, p.x + NODE_WIDTH);
    bottom = Math.max(bottom, p.y + NODE_HEIGHT);
  }
  return { bounds: left === Infinity ? null : { left, top, right, bottom }, missing };
}
