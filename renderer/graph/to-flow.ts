// The one mapper from a workflow document to React Flow's nodes and edges. The document is the
// truth; these are a projection of it (positions from `layout`, else from the auto-layout).
import type { Edge as FlowEdge, Node as FlowNode } from '@xyflow/react';
import type { Edge, Step, Workflow } from '../../shared/definition/workflow-schema.ts';
import type { EdgeOutcome, StepKind } from '../../shared/definition/names.ts';
import type { Diagnostic } from '../api/api-types.ts';

export const NODE_WIDTH = 232;
export const NODE_HEIGHT = 76;

export interface StepNodeData extends Record<string, unknown> {
  stepId: string;
  kind: StepKind;
  name: string;
  effect: 'none' | 'idempotent' | 'external';
  retries: number;
  deadlineMs: number | null;
  timeoutMs: number | null;
  optional: boolean;
  errors: number;
  warnings: number;
  problems: string[];
  /** Set on a run's graph: the node then shows that run's live state for its step. */
  runId: string | null;
}

export interface OutcomeEdgeData extends Record<string, unknown> {
  outcomes: EdgeOutcome[];
  when: string | null;
  isDefault: boolean;
  maxTraversals: number | null;
  runId: string | null;
}

export type StepFlowNode = FlowNode<StepNodeData, 'step'>;
export type OutcomeFlowEdge = FlowEdge<OutcomeEdgeData, 'outcome'>;

export interface Positions {
  [stepId: string]: { x: number; y: number };
}

export function toNodes(workflow: Workflow, diagnostics: readonly Diagnostic[], positions: Positions, runId: string | null): StepFlowNode[] {
  return workflow.steps.map((step) => {
    const own = diagnostics.filter((d) => d.stepId === step.id);
    return {
      id: step.id,
      type: 'step',
      position: positions[step.id] ?? { x: 0, y: 0 },
      width: NODE_WIDTH,
      height: NODE_HEIGHT,
      data: nodeData(step, own, runId),
    };
  });
}

function nodeData(step: Step, own: readonly Diagnostic[], runId: string | null): StepNodeData {
  return {
    stepId: step.id,
    kind: step.kind,
    name: step.name ?? step.id,
    effect: step.effect ?? 'none',
    retries: Math.max(0, (step.retry?.maxAttempts ?? 1) - 1),
    deadlineMs: step.deadlineMs ?? null,
    timeoutMs: step.timeoutMs ?? null,
    optional: step.optional === true,
    errors: own.filter((d) => d.severity === 'error').length,
    warnings: own.filter((d) => d.severity === 'warning').length,
    problems: own.map((d) => `${d.severity}: ${d.code}: ${d.message}`),
    runId,
  };
}

export function edgeOutcomesOf(edge: Edge): EdgeOutcome[] {
  if (edge.on === undefined) return ['succeeded'];
  return typeof edge.on === 'string' ? [edge.on] : [...edge.on];
}

export function toEdges(workflow: Workflow, runId: string | null): OutcomeFlowEdge[] {
  return workflow.edges.map((edge) => ({
    id: edge.id,
    type: 'outcome',
    source: edge.from,
    target: edge.to,
    data: {
      outcomes: edgeOutcomesOf(edge),
      when: edge.when ?? null,
      isDefault: edge.default === true,
      maxTraversals: edge.maxTraversals ?? null,
      runId,
    },
  }));
}

/** The positions the file gives, when it gives one for every step, spread out to fit the nodes. */
export function filePositions(workflow: Workflow): Positions | null {
  const layout = workflow.layout;
  if (layout === undefined) return null;
  return workflow.steps.every((s) => layout[s.id] !== undefined) ? spreadToFit(layout) : null;
}

const GAP_X = 48;
const GAP_Y = 36;

/**
 * A layout written for smaller boxes (by hand, or by another editor) would make the nodes overlap.
 * Scales it (x and y apart, never shrinking) just enough that nodes in one row or column keep a
 * gap, which keeps the arrangement the author chose. Rows and columns are found by sorting, so a
 * 1,000-step layout costs n log n, not n².
 */
export function spreadToFit(layout: Positions): Positions {
  const points = Object.values(layout);
  const scale = (axis: 'x' | 'y', other: 'x' | 'y', size: number, otherSize: number, gap: number): number => {
    const sorted = [...points].sort((a, b) => a[axis] - b[axis]);
    let factor = 1;
    for (let i = 0; i < sorted.length; i++) {
      const a = sorted[i];
      if (a === undefined) continue;
      // The next point along the axis that shares a band of the other axis with this one.
      for (let j = i + 1; j < sorted.length && j < i + 64; j++) {
        const b = sorted[j];
        if (b === undefined) continue;
        const d = b[axis] - a[axis];
        if (d <= 0 || Math.abs(b[other] - a[other]) >= otherSize) continue;
        factor = Math.max(factor, (size + gap) / d);
        break;
      }
    }
    return Math.min(factor, 8);
  };
  const sx = scale('x', 'y', NODE_WIDTH, NODE_HEIGHT, GAP_X);
  const sy = scale('y', 'x', NODE_HEIGHT, NODE_WIDTH, GAP_Y);
  if (sx === 1 && sy === 1) return layout;
  const out: Positions = {};
  for (const [id, p] of Object.entries(layout)) out[id] = { x: p.x * sx, y: p.y * sy };
  return out;
}
