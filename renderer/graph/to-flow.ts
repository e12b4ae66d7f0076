// The one mapper from a workflow document to React Flow's nodes and edges. The document is the
// truth; these are a projection of it (positions from `layout`, else from the auto-layout).
import type { Edge as FlowEdge, Node as FlowNode } from '@xyflow/react';
import type { Edge, Step, Workflow } from '../../shared/definition/workflow-schema.ts';
import type { EdgeOutcome, StepKind } from '../../shared/definition/names.ts';
import type { Diagnostic } from '../../shared/validator/diagnostic.ts';

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

/** The positions the file gives, when it gives one for every step. */
export function filePositions(workflow: Workflow): Positions | null {
  const layout = workflow.layout;
  if (layout === undefined) return null;
  return workflow.steps.every((s) => layout[s.id] !== undefined) ? layout : null;
}
