// The Problems panel under the canvas, and the per-step and per-edge problem maps the canvas draws.
import type { Diagnostic } from '../api/api-types.ts';

const EMPTY: Record<string, readonly Diagnostic[]> = {};

export function useProblemMaps(): { problemsByStep: Record<string, readonly Diagnostic[]>; problemsByEdge: Record<string, readonly Diagnostic[]> } {
  return { problemsByStep: EMPTY, problemsByEdge: EMPTY };
}

export function ProblemsDock() {
  return null;
}
