// The one mapper from a workflow document to React Flow's nodes and edges. The document is the
// truth; these are a projection of it (positions from `layout`, else from the auto-layout).
import { Position, type Edge as FlowEdge, type Node as FlowNode } from '@xyflow/react';
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
  /** In a diff view: how this step differs between the two versions. */
  diff?: DiffMark;
  /** On the insights page: the step's figures over the workflow's runs. */
  stats?: StepStatsMark;
  /** On a run's graph: a map step's items that did not succeed, of how many. */
  items?: ItemsMark;
  /** A debug run's (or the start form's) breakpoint before this step. */
  breakpoint?: true;
  /** A debug run's (or the start form's) pinned output for this step. */
  pinned?: true;
}

/** The steps a debug run pauses before and the steps whose output it pins, marked on the nodes. */
export interface DebugMarks {
  breakpoints: readonly string[];
  pins: readonly string[];
}

/** A map step's failed items, drawn as a badge: its state may say succeeded (onItemFailure "continue"). */
export interface ItemsMark {
  failed: number;
  total: number;
}

/** A step's latency (activation to settlement) over the runs of a workflow, and how many ran it. */
export interface StepStatsMark {
  p50: number | null;
  p95: number | null;
  /** Runs that activated the step, of `of` runs. */
  runs: number;
  of: number;
}

/** An edge over the runs of a workflow: taken ÷ decided, and the share of runs that took it. */
export interface EdgeStatsMark {
  frequency: number | null;
  taken: number;
  decided: number;
  /** Runs that took it at least once ÷ runs (0 with no runs): what the edge's thickness shows. */
  share: number;
}

/** What the insights page draws on the graph, by step id and edge id. */
export interface GraphStats {
  steps: Record<string, StepStatsMark>;
  edges: Record<string, EdgeStatsMark>;
}

export type DiffMark = 'added' | 'removed' | 'changed' | 'moved' | 'same';

export interface OutcomeEdgeData extends Record<string, unknown> {
  outcomes: EdgeOutcome[];
  when: string | null;
  isDefault: boolean;
  maxTraversals: number | null;
  runId: string | null;
  /** In the editor: how many validation problems the edge has. */
  problems?: number;
  /** In a diff view: how this edge differs between the two versions. */
  diff?: DiffMark;
  /** On the insights page: how often it was taken. */
  stats?: EdgeStatsMark;
  /** The edge's target receives a handoff record from its source (`handoffFrom`, docs/long-running.md). */
  handoff?: true;
  /** Where the label sits, clear of nodes: `t` along the curve (0 source, 1 target), `dy` off it; else the middle. */
  labelAt?: { t: number; dy: number };
}

export type StepFlowNode = FlowNode<StepNodeData, 'step'>;
export type OutcomeFlowEdge = FlowEdge<OutcomeEdgeData, 'outcome'>;

/**
 * Where a step node's two handles are, given up front so React Flow need not measure a node
 * before it can draw its edges; unmeasured nodes would all be mounted, visible or not.
 */
export const STEP_HANDLES: NonNullable<FlowNode['handles']> = [
  { type: 'target', position: Position.Left, x: -4, y: NODE_HEIGHT / 2 - 4, width: 8, height: 8 },
  { type: 'source', position: Position.Right, x: NODE_WIDTH - 4, y: NODE_HEIGHT / 2 - 4, width: 8, height: 8 },
];

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
      handles: STEP_HANDLES,
      data: nodeData(step, own, runId),
    };
  });
}

/** What a step's node shows: the step, its validation findings, and on a run's graph the run. */
export function nodeData(step: Step, own: readonly Diagnostic[], runId: string | null): StepNodeData {
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
  const handoffFrom = new Map(workflow.steps.flatMap((s) => (s.handoffFrom === undefined ? [] : [[s.id, s.handoffFrom] as const])));
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
      ...(handoffFrom.get(edge.to) === edge.from ? { handoff: true as const } : {}),
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
 * Scales it uniformly, never shrinking, just enough that every two nodes are apart in x or in y
 * (by a gap), which keeps the arrangement the author chose. Pairs are found by a sweep over x,
 * so a 1,000-step layout costs about n log n.
 */
export function spreadToFit(layout: Positions): Positions {
  const needX = NODE_WIDTH + GAP_X;
  const needY = NODE_HEIGHT + GAP_Y;
  const points = Object.values(layout).sort((a, b) => a.x - b.x);
  let scale = 1;
  for (let i = 0; i < points.length; i++) {
    const a = points[i];
    if (a === undefined) continue;
    for (let j = i + 1; j < points.length; j++) {
      const b = points[j];
      if (b === undefined) continue;
      const dx = b.x - a.x;
      if (dx * scale >= needX) break;
      const dy = Math.abs(b.y - a.y);
      if (dy * scale >= needY) continue;
      // The smaller of the two scales that separate this pair: in x, or in y.
      const pair = Math.min(dx > 0 ? needX / dx : Infinity, dy > 0 ? needY / dy : Infinity);
      if (Number.isFinite(pair)) scale = Math.max(scale, Math.min(pair, 8));
    }
  }
  if (scale === 1) return layout;
  const out: Positions = {};
  for (const [id, p] of Object.entries(layout)) out[id] = { x: p.x * scale, y: p.y * scale };
  return out;
}
