// The read-only graph of a workflow, or of a run when runId is given (nodes then show the run's
// live step states). Positions come from the file's `layout`, else from the auto-layout worker.
import { memo, useEffect, useMemo, useState } from 'react';
import { Background, BackgroundVariant, Controls, MiniMap, ReactFlow, type NodeMouseHandler } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { SemanticZoomStyle } from './semantic-zoom-style.tsx';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { Diagnostic } from '../api/api-types.ts';
import { CANVAS_MIN_ZOOM, DEFAULT_EDGE_OPTIONS, EDGE_TYPES, NODE_TYPES, PRO_OPTIONS } from './flow-defaults.ts';
import { filePositions, toEdges, toNodes, type GraphStats, type DebugMarks, type ItemsMark, type OutcomeFlowEdge, type Positions, type StepFlowNode } from './to-flow.ts';
import { autoLayout } from './auto-layout.ts';
import { labelledEdges, placeEdgeLabels, widenForLabels } from './edge-label-layout.ts';
import { useTheme } from '../core/theme-store.ts';


interface Props {
  workflow: Workflow;
  diagnostics: readonly Diagnostic[];
  runId?: string | null;
  selected?: string | null;
  onSelect?: (stepId: string | null) => void;
  /** On the insights page: figures drawn on the nodes (p50/p95) and edges (frequency, thickness). */
  stats?: GraphStats | null;
  /** On a run's graph: map steps' failed items, by step id. */
  items?: Readonly<Record<string, ItemsMark>> | null;
  /** A debug run's breakpoints and pins (the start form's, or a run's), drawn as marks on the nodes. */
  debug?: DebugMarks | null;
}

function WorkflowGraphView({ workflow, diagnostics, runId = null, selected = null, onSelect, stats = null, items = null, debug = null }: Props) {
  const theme = useTheme((s) => s.theme);
  const fromFile = useMemo(() => filePositions(workflow), [workflow]);
  const [computed, setComputed] = useState<{ for: Workflow; positions: Positions } | null>(null);
  const [layoutError, setLayoutError] = useState<string | null>(null);

  useEffect(() => {
    if (fromFile !== null) return;
    let live = true;
    autoLayout(workflow).then(
      (positions) => live && setComputed({ for: workflow, positions }),
      (error: unknown) => live && setLayoutError(error instanceof Error ? error.message : String(error)),
    );
    return () => {
      live = false;
    };
  }, [workflow, fromFile]);

  const laidOut = fromFile ?? (computed?.for === workflow ? computed.positions : null);
  // Room for the labels: gaps widened where a row's label would not fit, each label placed clear of nodes.
  const labelled = useMemo(() => labelledEdges(workflow, stats !== null), [workflow, stats]);
  const positions = useMemo(() => (laidOut === null ? null : widenForLabels(laidOut, labelled)), [laidOut, labelled]);
  const labelAt = useMemo(() => (positions === null ? null : placeEdgeLabels(positions, labelled)), [positions, labelled]);
  const nodes = useMemo(() => {
    if (positions === null) return null;
    return toNodes(workflow, diagnostics, positions, runId).map((n): StepFlowNode => {
      const mark = stats?.steps[n.id];
      const itemMark = items?.[n.id];
      const breakpoint = debug?.breakpoints.includes(n.id) === true;
      const pinned = debug?.pins.includes(n.id) === true;
      const data =
        mark === undefined && itemMark === undefined && !breakpoint && !pinned
          ? n.data
          : { ...n.data, ...(mark === undefined ? {} : { stats: mark }), ...(itemMark === undefined ? {} : { items: itemMark }), ...(breakpoint ? { breakpoint } : {}), ...(pinned ? { pinned } : {}) };
      const node = data === n.data ? n : { ...n, data };
      return n.id === selected ? { ...node, selected: true } : node;
    });
  }, [workflow, diagnostics, positions, runId, selected, stats, items, debug]);
  const edges = useMemo(
    () =>
      toEdges(workflow, runId).map((e): OutcomeFlowEdge => {
        const mark = stats?.edges[e.id];
        const at = labelAt?.[e.id];
        if (e.data === undefined || (mark === undefined && at === undefined)) return e;
        return { ...e, data: { ...e.data, ...(mark === undefined ? {} : { stats: mark }), ...(at === undefined ? {} : { labelAt: at }) } };
      }),
    [workflow, runId, stats, labelAt],
  );

  const onNodeClick: NodeMouseHandler<StepFlowNode> = (_event, node) => onSelect?.(node.id);

  if (layoutError !== null) return <div className="error-box">The automatic layout failed: {layoutError}</div>;
  if (nodes === null) return <div className="loading">Laying out {workflow.steps.length} steps…</div>;
  return (
    <div className="graph" data-testid="workflow-graph" data-large={workflow.steps.length > 200 ? 'true' : undefined}>
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        edgeTypes={EDGE_TYPES}
        defaultEdgeOptions={DEFAULT_EDGE_OPTIONS}
        colorMode={theme}
        fitView
        fitViewOptions={{ padding: 0.12, maxZoom: 1.1 }}
        minZoom={CANVAS_MIN_ZOOM}
        maxZoom={2}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable
        onlyRenderVisibleElements={workflow.steps.length > 200}
        onNodeClick={onNodeClick}
        onPaneClick={() => onSelect?.(null)}
        proOptions={PRO_OPTIONS}
        aria-label={`graph of ${workflow.name}`}
      >
        <SemanticZoomStyle />
        <Background variant={BackgroundVariant.Dots} gap={18} size={1.2} color="var(--canvas-dots)" />
        {/* A small graph fits the pane whole: a minimap would only cover part of it. */}
        {workflow.steps.length > MINIMAP_FROM_STEPS && <MiniMap pannable zoomable className="minimap" nodeStrokeWidth={3} nodeColor="var(--minimap-node)" />}
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}

/** Steps from which the run and insights graphs show a minimap. */
const MINIMAP_FROM_STEPS = 16;

export const WorkflowGraph = memo(WorkflowGraphView);
